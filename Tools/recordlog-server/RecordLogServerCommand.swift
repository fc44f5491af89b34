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

            Examples:
              recordlog-server create-database --root /srv/recordlog notes   # prints the token last
              recordlog-server serve --root /srv/recordlog --port 8080
              recordlog-server serve --root /srv/recordlog --port 0          # any free port
              recordlog-server rotate-token --root /srv/recordlog notes      # the old token stops working
              recordlog-server list-databases --root /srv/recordlog
              curl -s localhost:8080/health; curl -s localhost:8080/metrics

            Exit status: 0 success (serve: stopped by SIGTERM or SIGINT, every store closed); \
            3 the command failed (a taken port, an unknown database, a damaged token file); \
            64 bad arguments.
            """,
        subcommands: [ServeCommand.self, CreateDatabaseCommand.self, RotateTokenCommand.self, ListDatabasesCommand.self])
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
            """)

    @Option(help: "The root directory of the databases.") var root: String
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port; 0 for any free one.") var port = 8080
    @Option(help: "A PEM certificate chain: serve HTTPS (with --tls-key).") var tlsCert: String?
    @Option(help: "The PEM private key of --tls-cert.") var tlsKey: String?
    @Option(help: "The largest request body, in bytes.") var maxBodySize = 16 * 1024 * 1024
    @Option(help: "Requests one database serves at once before answering THROTTLED.") var maxConcurrentRequests = 256
    @Option(help: "How large a page of zone changes grows (bytes of stored values) before moreComing.") var maxPageBytes = 4 * 1024 * 1024
    @Option(help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"

    func validate() throws {
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
            root: root, host: host, port: port, maximumRequestBodySize: maxBodySize, maximumConcurrentRequestsPerDatabase: maxConcurrentRequests,
            maximumPageBytes: maxPageBytes)
        if let tlsCert, let tlsKey {
            configuration.tls = .init(certificatePath: tlsCert, privateKeyPath: tlsKey)
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

    @Option(help: "The root directory of the databases.") var root: String
    @Argument(help: "The database's name: letters, digits, '-' and '_'.") var name: String

    func run() async throws {
        try await reportingErrors {
            let token = try await DatabaseRoot(path: root).createDatabase(name)
            print("created database \(name) in \(root)")
            print(token)
        }
    }
}

struct RotateTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-token",
        abstract: "Give a database a new token (printed last); the old one stops working.",
        discussion: "Safe while the server runs: from its next request the old token gets 401.")

    @Option(help: "The root directory of the databases.") var root: String
    @Argument(help: "The database's name.") var name: String

    func run() async throws {
        try await reportingErrors {
            let token = try DatabaseRoot(path: root).rotateToken(name)
            print("new token for database \(name)")
            print(token)
        }
    }
}

struct ListDatabasesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-databases",
        abstract: "Print the root's databases, one per line.")

    @Option(help: "The root directory of the databases.") var root: String

    func run() async throws {
        try await reportingErrors {
            for name in try DatabaseRoot(path: root).listDatabases() { print(name) }
        }
    }
}
