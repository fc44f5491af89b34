// swift-tools-version:6.1
import Foundation
import PackageDescription

// The root package, by path; its identity is its directory's name, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "RecordLogBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    ],
    targets: [
        // liblz4 from the system, for W10's peer.
        .systemLibrary(name: "CLZ4Peer", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        // RocksDB and LMDB from the system, the key-value peers of every workload but W10.
        .systemLibrary(name: "CRocksDBPeer", pkgConfig: "rocksdb", providers: [.apt(["librocksdb-dev"])]),
        .systemLibrary(name: "CLMDBPeer", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        .executableTarget(
            name: "recordlog-bench",
            dependencies: [
                "CLZ4Peer",
                "CRocksDBPeer",
                "CLMDBPeer",
                .product(name: "RecordLog", package: rootIdentity),
                .product(name: "RecordStore", package: rootIdentity),
                .product(name: "Notes", package: rootIdentity),
                .product(name: "RecordSync", package: rootIdentity),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
