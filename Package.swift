// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RecordLog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RecordLog", targets: ["RecordLog"]),
        .library(name: "RecordStore", targets: ["RecordStore"]),
        .library(name: "RecordSync", targets: ["RecordSync"]),
        .library(name: "Notes", targets: ["Notes"]),
        .executable(name: "notes", targets: ["notes"]),
        .library(name: "LogInspection", targets: ["LogInspection"]),
        .executable(name: "log-inspect", targets: ["log-inspect"]),
        .executable(name: "log-replay", targets: ["log-replay"]),
        .executable(name: "recordlog-demo", targets: ["recordlog-demo"]),
        .executable(name: "recordlog", targets: ["recordlog"]),
        .library(name: "RecordServer", targets: ["RecordServer"]),
        .library(name: "RecordClient", targets: ["RecordClient"]),
        .executable(name: "recordlog-server", targets: ["recordlog-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // log-inspect's HTML report: the page is a Mustache template (escaping every text it
        // shows); only the charts' SVG geometry is written by hand.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // recordlog-server: HTTP (Hummingbird, TLS through swift-nio-ssl), graceful shutdown,
        // token hashes (swift-crypto), metrics with a Prometheus endpoint; the server tests' raw
        // HTTP client (AsyncHTTPClient; HTTPRemoteDatabase uses URLSession); the OpenAPI
        // document's test reads YAML (Yams, tests only).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // A database's zones as rows of PostgreSQL, for a cluster of recordlog-server nodes
        // (RecordPostgres only: the core library does not link it).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // recordlog-server's gzip'd answers (zlib).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // liblz4 from the system (Debian: liblz4-dev), wrapped as small as possible.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // CRC-32C (Castagnoli): slicing-by-8 in portable C, SSE4.2 when the CPU has it.
        .target(name: "CCRC32C"),
        // Starting a file range's writeback without waiting (sync_file_range), which Swift's
        // Glibc module does not export.
        .target(name: "CWriteback"),
        // The compiler's cache prefetch hint, which Swift does not expose.
        .target(name: "CPrefetch"),
        // Moving a mapping's pages without copying them (mremap), which Swift cannot call.
        .target(name: "CMoveMapping"),
        // The storage toolkit below the log: files and syscalls, bytes and varints, CRC-32C, LZ4
        // frames, threads and locks, mapped collections. `package` access only: no product
        // exposes it.
        .target(
            name: "StorageKit",
            dependencies: ["CLZ4", "CCRC32C", "CWriteback", "CPrefetch", "CMoveMapping"]
        ),
        .target(
            name: "RecordLog",
            dependencies: [
                "StorageKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "RecordStore",
            dependencies: [
                "StorageKit",
                "RecordLog",
                "CPrefetch",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A database's zones as rows of PostgreSQL: unchanged Kafka v2 batches, fenced appends.
        .target(
            name: "RecordPostgres",
            dependencies: [
                "RecordLog",
                "RecordStore",
                "StorageKit",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Keeps a local store in step with a remote database (CKSyncEngine's loop): the
        // RemoteDatabase protocol, the engine, its merges.
        .target(
            name: "RecordSync",
            dependencies: [
                "StorageKit",
                "RecordStore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The server's JSON API in CloudKit Web Services' shapes: a small JSON reader and writer
        // over bytes, and every request, response and error body written for the wire, shared
        // by recordlog-server and HTTPRemoteDatabase.
        .target(
            name: "RecordWire",
            dependencies: ["RecordStore"]
        ),
        // recordlog-server's logic: the Hummingbird application, the database registry and its
        // tokens, push over Server-Sent Events, metrics, graceful shutdown.
        .target(
            name: "RecordServer",
            dependencies: [
                "StorageKit",
                "RecordPostgres",
                "RecordStore",
                "RecordWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HTTPRemoteDatabase: a RemoteDatabase over recordlog-server's API, on the toolchain's
        // URLSession (FoundationNetworking, libcurl), so that `notes` builds without NIO.
        .target(
            name: "RecordClient",
            dependencies: [
                "RecordStore",
                "RecordWire",
                "RecordSync",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "recordlog-server",
            dependencies: [
                "RecordServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tools/recordlog-server"
        ),
        // A load generator for recordlog-server on loopback (Tools/server/load runs it): for
        // BENCHMARKS.md, not shipped.
        .executableTarget(
            name: "recordlog-server-load",
            dependencies: [
                "RecordClient",
                "RecordPostgres",
                "RecordLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/recordlog-server-load"
        ),
        .target(
            name: "Notes",
            dependencies: [
                "StorageKit",
                "RecordStore",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The notes command's logic, callable in-process: its commands, JSON shapes and store
        // location. Not library API: only the executable and its tests use it.
        .target(
            name: "NotesCLI",
            dependencies: ["Notes", "RecordSync"]
        ),
        .executableTarget(
            name: "notes",
            dependencies: [
                "Notes",
                "NotesCLI",
                "RecordClient",
                "RecordSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/notes"
        ),
        .target(
            name: "LogInspection",
            dependencies: [
                "RecordLog",
                "RecordStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The Notes app's views replayed to a point of the log: what `log-replay notes` shows.
        .target(
            name: "NotesReplay",
            dependencies: ["LogInspection", "Notes"]
        ),
        .executableTarget(
            name: "log-inspect",
            dependencies: [
                "LogInspection",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/log-inspect"
        ),
        .executableTarget(
            name: "log-replay",
            dependencies: [
                "LogInspection",
                "NotesReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/log-replay"
        ),
        // The store administration tool: compact, repair, checkpoint.
        .executableTarget(
            name: "recordlog",
            dependencies: [
                "LogInspection",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/recordlog"
        ),
        .executableTarget(
            name: "recordlog-demo",
            dependencies: [
                "RecordLog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/recordlog-demo"
        ),
        // The reliability harness: a seeded workload, its expected-state oracle, crash and
        // power-loss rounds. Used by the `reliability` tool (long runs) and ReliabilityTests.
        .target(
            name: "ReliabilityHarness",
            dependencies: ["StorageKit", "RecordLog", "RecordStore", "LogInspection", "TestSupport"],
            path: "Tools/reliability/Harness"
        ),
        .executableTarget(
            name: "reliability",
            dependencies: [
                "ReliabilityHarness",
                "StorageKit",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/reliability/Command"
        ),
        // Fuzzing (Tools/fuzz/run): the targets, one per decoder of untrusted bytes, and one
        // executable. Built with `-sanitize=fuzzer -DFUZZING` libFuzzer drives it; built normally
        // it writes the seed corpora and replays saved inputs.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "StorageKit", "RecordLog", "RecordStore", "Notes", "RecordWire",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tools/fuzz/Targets"
        ),
        .executableTarget(
            name: "recordlog-fuzz",
            dependencies: ["FuzzTargets"],
            path: "Tools/fuzz/Command"
        ),
        // Test support, never shipped: compacts a store and kills itself at a named step, for
        // the compaction crash tests (CompactionCrashTests).
        .executableTarget(
            name: "compaction-crash-child",
            dependencies: ["RecordLog"],
            path: "Tests/CompactionCrashChild"
        ),
        // Test support, never shipped: a device that dies in the middle of saving or sending,
        // for the sync crash tests (SyncCrashTests).
        .executableTarget(
            name: "sync-crash-child",
            dependencies: ["RecordSync", "RecordStore", "RecordLog"],
            path: "Tests/SyncCrashChild"
        ),
        // Helpers every test target shares: a seeded generator, running the built executables.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"
        ),
        // Runs a suite under every commit tuning (all tricks off, standard, all on).
        .target(
            name: "TuningSupport",
            dependencies: ["RecordStore"],
            path: "Tests/TuningSupport"
        ),
        // The kinds of store a contract suite runs over (files, memory, PostgreSQL) and the test
        // run's PostgreSQL: RecordStore's suites open their database of each, RecordSync's their
        // remote, RecordServer's their server's storage.
        .target(
            name: "StoreKindSupport",
            dependencies: [
                "RecordLog",
                "RecordStore",
                "RecordPostgres",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StoreKindSupport"
        ),
        .testTarget(
            name: "StorageKitTests",
            dependencies: ["StorageKit", "TestSupport"]
        ),
        .testTarget(
            name: "RecordLogTests",
            dependencies: ["RecordLog", "TestSupport"]
        ),
        .testTarget(
            name: "RecordStoreTests",
            dependencies: ["RecordStore", "StoreKindSupport", "TestSupport", "TuningSupport"]
        ),
        .testTarget(
            name: "RecordSyncTests",
            dependencies: ["RecordSync", "RecordStore", "RecordLog", "Notes", "StoreKindSupport", "TestSupport"]
        ),
        .testTarget(
            name: "NotesTests",
            dependencies: ["Notes", "TestSupport", "TuningSupport"]
        ),
        .testTarget(
            name: "NotesCLITests",
            dependencies: ["NotesCLI", "Notes", "RecordStore", "TestSupport"]
        ),
        .testTarget(
            name: "LogInspectionTests",
            dependencies: ["LogInspection", "TestSupport"]
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["ReliabilityHarness", "StorageKit", "RecordLog", "RecordStore", "TestSupport", "FuzzTargets"]
        ),
        .testTarget(
            name: "RecordPostgresTests",
            dependencies: ["RecordPostgres", "RecordLog", "RecordStore", "StorageKit", "TestSupport"]
        ),
        .testTarget(
            name: "RecordWireTests",
            dependencies: ["RecordWire", "RecordStore", "TestSupport"]
        ),
        .testTarget(
            name: "RecordServerTests",
            dependencies: [
                "RecordServer",
                "RecordClient",
                "RecordWire",
                "RecordSync",
                "RecordStore",
                "RecordPostgres",
                "StoreKindSupport",
                "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .testTarget(
            name: "NotesReplayTests",
            dependencies: ["NotesReplay", "LogInspection", "Notes", "RecordStore", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
