import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import RecordServer
import ServiceLifecycle

/// recordlog-server: RecordLog databases behind HTTP.
@main
struct RecordLogServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordlog-server",
        abstract: "Serve RecordLog databases over HTTP: records, changes, zones, subscriptions, push.",
        discussion: """
            A ROOT directory holds the databases: one store directory each under ROOT/databases/, \
            and ROOT/tokens with each database's token digest (SHA-256; tokens themselves are \
            stored nowhere). The API is docs/openapi.yaml: every path under \
            /v1/databases/NAME needs "Authorization: Bearer TOKEN" with NAME's token.

            Or a cluster: the databases and their token digests live in PostgreSQL (--postgres URL, \
            or $RECORDLOG_POSTGRES_URL), and any number of servers serve any database, each from \
            a disposable mirror in its --cache directory.

            Examples:
              recordlog-server create-database --root /srv/recordlog notes   # prints the token last
              recordlog-server serve --root /srv/recordlog --port 8080
              recordlog-server serve --root /srv/recordlog --port 0          # any free port
              recordlog-server rotate-token --root /srv/recordlog notes      # the old token stops working
              recordlog-server list-databases --root /srv/recordlog
              recordlog-server create-database --postgres postgres://recordlog@db/recordlog notes
              recordlog-server serve --postgres postgres://recordlog@db/recordlog --cache /var/cache/recordlog --port 8080
              recordlog-server export-database --postgres postgres://recordlog@db/recordlog notes /backups/notes
              recordlog-server import-database --postgres postgres://recordlog@db/recordlog notes /srv/recordlog/databases/notes
              recordlog-server compact-database --postgres postgres://recordlog@db/recordlog notes
              curl -s localhost:8080/health; curl -s localhost:8080/metrics

            Exit status: 0 success (serve: stopped by SIGTERM or SIGINT, every store closed); \
            3 the command failed (a taken port, an unknown database, a damaged token file); \
            64 bad arguments.
            """,
        subcommands: [
            ServeCommand.self, CreateDatabaseCommand.self, RotateTokenCommand.self, ListDatabasesCommand.self, ExportDatabaseCommand.self,
            ImportDatabaseCommand.self, CompactDatabaseCommand.self,
        ])
}

/// Turns an error into a message on stderr and exit status 3.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("recordlog-server: \(error)\n".utf8))
        throw ExitCode(3)
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the root's databases until SIGTERM or SIGINT.",
        discussion: """
            The first line on stdout is "listening on http://HOST:PORT" (https with --tls-cert), \
            once the socket is bound. Logs go to stderr (--log-level). On SIGTERM or SIGINT the \
            server stops accepting connections, ends notification streams, lets requests in \
            flight finish (every acknowledged commit is on disk) and closes every store.

            With --cache (and --postgres URL or $RECORDLOG_POSTGRES_URL) the databases live in \
            PostgreSQL: every acknowledged commit is in PostgreSQL (and its synchronous standby, \
            when it has one), and the cache holds this server's mirrors, which it may lose.
            """)

    @Option(help: "The root directory of the databases (files).") var root: String?
    @Option(help: "Serve the databases of a cluster's PostgreSQL, keeping this server's mirrors of them in this directory.")
    var cache: String?
    @Option(help: "The cluster's PostgreSQL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE); with --cache. Default: $RECORDLOG_POSTGRES_URL.")
    var postgres: String?
    @Option(help: "Connections to PostgreSQL this server opens at most.") var postgresConnections = 20
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port; 0 for any free one.") var port = 8080
    @Option(help: "A PEM certificate chain: serve HTTPS (with --tls-key).") var tlsCert: String?
    @Option(help: "The PEM private key of --tls-cert.") var tlsKey: String?
    @Option(help: "The largest request body, in bytes.") var maxBodySize = 16 * 1024 * 1024
    @Option(help: "Requests one database serves at once before answering THROTTLED.") var maxConcurrentRequests = 256
    @Option(help: "How large a page of zone changes grows (bytes of stored values) before moreComing.") var maxPageBytes = 4 * 1024 * 1024
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"

    func validate() throws {
        guard (root == nil) != (cache == nil) else { throw ValidationError("Give --root (files) or --cache (PostgreSQL), one of them.") }
        guard cache == nil || postgresURL != nil else { throw ValidationError("--cache needs --postgres URL (or $RECORDLOG_POSTGRES_URL).") }
        guard root == nil || postgres == nil else { throw ValidationError("--postgres goes with --cache, not --root.") }
        guard postgresConnections > 0 else { throw ValidationError("--postgres-connections must be positive.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \(logLevel) is not a level.") }
        guard maxBodySize > 0, maxConcurrentRequests > 0, maxPageBytes > 0 else { throw ValidationError("Limits must be positive.") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "recordlog-server")
        var configuration = RecordServerConfiguration(
            root: root ?? cache ?? "", host: host, port: port, maximumRequestBodySize: maxBodySize, maximumConcurrentRequestsPerDatabase: maxConcurrentRequests,
            maximumPageBytes: maxPageBytes)
        if let tlsCert, let tlsKey {
            configuration.tls = .init(certificatePath: tlsCert, privateKeyPath: tlsKey)
        }
        if cache != nil {
            configuration.postgres = postgresURL
            configuration.postgresConnections = postgresConnections
        }
        let scheme = configuration.tls == nil ? "http" : "https"
        let server = RecordServer(configuration: configuration, logger: logger, metricsRegistry: registry) { host, port in
            let shown = host.contains(":") ? "[\(host)]" : host
            // Unbuffered, so that a script reading the first line gets it at once.
            FileHandle.standardOutput.write(Data("listening on \(scheme)://\(shown):\(port)\n".utf8))
        }
        try await reportingErrors {
            try await ServiceGroup(
                configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            ).run()
        }
    }
}

struct CreateDatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-database",
        abstract: "Create a database and print its token (the last line).",
        discussion: """
            The token is shown once and stored nowhere (only its SHA-256 digest is): keep it. \
            Safe while the server runs: it serves the new database from its next request.
            """)

    @OptionGroup var place: DatabasePlace
    @Argument(help: "The database's name: letters, digits, '-' and '_'.") var name: String

    func validate() throws { try place.validate() }

    func run() async throws {
        try await reportingErrors {
            if let root = place.root {
                let token = try await DatabaseRoot(path: root).createDatabase(name)
                print("created database \(name) in \(root)")
                print(token)
            } else {
                let token = try await ClusterDatabases(url: place.postgresURL ?? "").createDatabase(name)
                print("created database \(name) in PostgreSQL")
                print(token)
            }
        }
    }
}

struct RotateTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-token",
        abstract: "Give a database a new token (printed last); the old one stops working.",
        discussion: "Safe while the server runs: from its next request the old token gets 401.")

    @OptionGroup var place: DatabasePlace
    @Argument(help: "The database's name.") var name: String

    func validate() throws { try place.validate() }

    func run() async throws {
        try await reportingErrors {
            let token: String
            if let root = place.root {
                token = try DatabaseRoot(path: root).rotateToken(name)
            } else {
                token = try await ClusterDatabases(url: place.postgresURL ?? "").rotateToken(name)
            }
            print("new token for database \(name)")
            print(token)
        }
    }
}

struct ListDatabasesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-databases",
        abstract: "Print the root's databases, one per line.")

    @OptionGroup var place: DatabasePlace

    func validate() throws { try place.validate() }

    func run() async throws {
        try await reportingErrors {
            let names: [String]
            if let root = place.root {
                names = try DatabaseRoot(path: root).listDatabases()
            } else {
                names = try await ClusterDatabases(url: place.postgresURL ?? "").listDatabases()
            }
            for name in names { print(name) }
        }
    }
}

/// Where an administration command finds the databases: a root directory, or a cluster's
/// PostgreSQL.
struct DatabasePlace: ParsableArguments {
    @Option(help: "The root directory of the databases (files).") var root: String?
    @Option(help: "The cluster's PostgreSQL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE). Default without --root: $RECORDLOG_POSTGRES_URL.")
    var postgres: String?

    /// The cluster's URL, when the databases are not in a root.
    var postgresURL: String? {
        root == nil ? postgres ?? ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"] : nil
    }

    func validate() throws {
        guard root == nil || postgres == nil else { throw ValidationError("Give --root or --postgres, not both.") }
        guard root != nil || postgresURL != nil else { throw ValidationError("Give --root DIR, or --postgres URL (or set $RECORDLOG_POSTGRES_URL).") }
    }
}

extension ServeCommand {
    /// The cluster's URL: --postgres, or $RECORDLOG_POSTGRES_URL.
    var postgresURL: String? { postgres ?? ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"] }
}

struct ExportDatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-database",
        abstract: "Write a database of the cluster's PostgreSQL as an ordinary store directory.",
        discussion: """
            The directory (new, or empty) gets every zone's rows as segment files, byte for byte \
            and fsync'd: a backup that notes, log-inspect, log-replay and Kafka's parsers read, \
            and that `serve --root` serves once it is ROOT/databases/NAME. Commits made while it \
            runs are not in it. Safe while the cluster serves the database.
            """)

    @Option(help: "The cluster's PostgreSQL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE). Default: $RECORDLOG_POSTGRES_URL.")
    var postgres: String?
    @Argument(help: "The database's name.") var name: String
    @Argument(help: "The directory to write the store into.") var directory: String

    func run() async throws {
        try await reportingErrors {
            let report = try await ClusterDatabases(url: postgres ?? ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"] ?? "")
                .exportDatabase(name, to: directory)
            print("exported database \(name): \(report.zones) zones, \(report.batches) batches, \(report.bytes) bytes in \(directory)")
        }
    }
}

struct ImportDatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-database",
        abstract: "Make a store directory a new database of the cluster's PostgreSQL; print its token (the last line).",
        discussion: """
            Every zone's batches become rows, byte for byte, in one transaction: the database \
            appears whole or not at all. The name must be new to the cluster. A compacted store \
            imports as long as each zone's log still starts at offset 0. Move a database of a `serve --root` server with \
            `import-database NAME ROOT/databases/NAME` while that server is stopped.
            """)

    @Option(help: "The cluster's PostgreSQL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE). Default: $RECORDLOG_POSTGRES_URL.")
    var postgres: String?
    @Argument(help: "The new database's name.") var name: String
    @Argument(help: "The store directory to import.") var directory: String

    func run() async throws {
        try await reportingErrors {
            let (report, token) = try await ClusterDatabases(url: postgres ?? ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"] ?? "")
                .importDatabase(name, from: directory)
            print("imported database \(name): \(report.zones) zones, \(report.batches) batches, \(report.bytes) bytes")
            print(token)
        }
    }
}

struct CompactDatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact-database",
        abstract: "Compact a database of the cluster's PostgreSQL: replaced versions removed, small commits merged.",
        discussion: """
            Each zone's rows below its end are cleaned as a store's segments are (each record's \
            latest event kept, one-record commits merged into batches that compress) and replace \
            the old rows in one transaction, fenced: if another compaction of the zone finished \
            first, nothing changes. Deletes are kept unless --retain says how long: a device \
            whose change token predates a dropped delete then fetches from scratch \
            (CHANGE_TOKEN_EXPIRED). Safe while the cluster serves the database; a node whose \
            mirror ends inside the replaced rows fetches that zone again.
            """)

    @Option(help: "The cluster's PostgreSQL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE). Default: $RECORDLOG_POSTGRES_URL.")
    var postgres: String?
    @Option(help: "Drop deletes older than SECONDS (default: keep every delete).") var retain: Int?
    @Argument(help: "The database's name.") var name: String

    func validate() throws {
        if let retain, retain < 0 { throw ValidationError("--retain takes a number of seconds, 0 or more") }
    }

    func run() async throws {
        try await reportingErrors {
            let zones = try await ClusterDatabases(url: postgres ?? ProcessInfo.processInfo.environment["RECORDLOG_POSTGRES_URL"] ?? "")
                .compactDatabase(name, tombstoneRetention: retain.map { .seconds($0) })
            for zone in zones {
                print(
                    "zone \(zone.zone): \(zone.bytesBefore) → \(zone.bytesAfter) bytes, \(zone.recordsRemoved) records removed, \(zone.deletesDropped) deletes dropped")
            }
            print("compacted database \(name): \(zones.count) zones changed")
        }
    }
}
