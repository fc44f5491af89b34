import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Logging
import NIOCore
import RecordClient
import RecordPostgres
import RecordServer
import RecordStore
import RecordWire
import ServiceLifecycle
import StoreKindSupport
import Testing

/// Where a test server keeps its databases: the server's contract suites run over each, so that
/// a node of a cluster on PostgreSQL answers every request as a server over its root's files does.
enum ServerStorage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Store directories under the server's root, and the root's token file.
    case files
    /// Rows of the test run's PostgreSQL (`RECORDLOG_POSTGRES_URL`), the root the node's cache.
    case postgres

    /// Every storage this run can use: PostgreSQL only when the tests have one (under CI they
    /// always do).
    static var allCases: [ServerStorage] { TestCluster.url == nil ? [.files] : [.files, .postgres] }

    var testDescription: String { rawValue }
}

/// A `RecordServer` in this process, on a free loopback port, over a fresh temporary root with
/// the databases a test asks for (each with its token); stopped gracefully by ``stop()``.
///
/// On PostgreSQL every test's databases share one catalog, so each database gets a name of its
/// own there; the test keeps its own name for it ("notes"), which ``remote(_:token:retryPolicy:)``,
/// ``raw(_:_:body:token:headers:)`` and ``address(_:)`` put right (``name(_:)`` tells it).
struct TestServer: Sendable {
    let storage: ServerStorage
    let root: String
    let url: URL
    let port: Int
    /// Each database's token, by the test's name for it.
    let tokens: [String: String]
    /// Each database's name on the server, by the test's name for it.
    private let names: [String: String]
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start(
        _ storage: ServerStorage = .files, databases: [String] = ["notes"], scheme: String = "http",
        configure: (inout RecordServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("RecordServerTests-\(UUID().uuidString)").path
        var tokens: [String: String] = [:]
        var names: [String: String] = [:]
        // On PostgreSQL, the names of this server's databases start with a prefix of its own.
        let prefix = TestCluster.uniqueName("server")
        for name in databases {
            switch storage {
            case .files:
                names[name] = name
                tokens[name] = try await DatabaseRoot(path: root).createDatabase(name)
            case .postgres:
                names[name] = "\(prefix)-\(name)"
                tokens[name] = try await ClusterDatabases(url: try postgresURL()).createDatabase("\(prefix)-\(name)")
            }
        }
        return try await serve(storage, root: root, tokens: tokens, names: names, scheme: scheme, configure: configure)
    }

    /// A server started again, after ``stop()``, over the same databases and root, with the
    /// default configuration (on another port).
    func restarted() async throws -> TestServer {
        try await Self.serve(storage, root: root, tokens: tokens, names: names, scheme: url.scheme ?? "http") { _ in }
    }

    private static func serve(
        _ storage: ServerStorage, root: String, tokens: [String: String], names: [String: String], scheme: String,
        configure: (inout RecordServerConfiguration) -> Void
    ) async throws -> TestServer {
        var configuration = RecordServerConfiguration(root: root, host: "127.0.0.1", port: 0)
        if storage == .postgres {
            configuration.postgres = try postgresURL()
            // Many test servers run at once, and PostgreSQL takes 300 connections in all.
            configuration.postgresConnections = 4
        }
        configure(&configuration)
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let server = RecordServer(configuration: configuration, logger: logger) { _, port in portContinuation.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [server], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            try await task.value
            throw TestServerError.didNotStart
        }
        guard let url = URL(string: "\(scheme)://127.0.0.1:\(port)") else { throw TestServerError.didNotStart }
        return TestServer(storage: storage, root: root, url: url, port: port, tokens: tokens, names: names, group: group, task: task)
    }

    private static func postgresURL() throws -> String {
        guard let url = TestCluster.url else { throw TestServerError.noPostgres }
        return url
    }

    /// The server's name of the test's database `database`.
    func name(_ database: String = "notes") -> String { names[database] ?? database }

    /// `path` as the server knows it: the test's name of a database in `/v1/databases/NAME/…`
    /// becomes the server's; any other path is left as it is.
    func serverPath(_ path: String) -> String {
        let prefix = APIPath.databasePrefix + "/"
        guard path.hasPrefix(prefix) else { return path }
        let rest = path.dropFirst(prefix.count)
        let database = rest.prefix { $0 != "/" }
        guard let name = names[String(database)] else { return path }
        return prefix + name + rest.dropFirst(database.count)
    }

    /// The absolute URL of `path` on this server (see ``serverPath(_:)``), for a request built by hand.
    func address(_ path: String) -> String { url.absoluteString + serverPath(path) }

    /// The client of `database`, with its token unless told another.
    func remote(_ database: String = "notes", token: String? = nil, retryPolicy: RetryPolicy = RetryPolicy()) -> HTTPRemoteDatabase {
        HTTPRemoteDatabase(url: url, database: name(database), token: token ?? tokens[database] ?? "", retryPolicy: retryPolicy)
    }

    /// Runs `body` with database `database` opened as a writer beside the server, as an
    /// administration tool (on files: the server must be stopped, the store is its directory) or
    /// another node of the cluster (on PostgreSQL: a mirror of its own under the root) writes it.
    func withDatabase(_ database: String = "notes", _ body: (Database) async throws -> Void) async throws {
        let (store, mirror): (Database, PostgresMirrorLog?)
        switch storage {
        case .files:
            (store, mirror) = (try await Database(directory: DatabaseRoot(path: root).storeDirectory(of: name(database))), nil)
        case .postgres:
            guard let cluster = TestCluster.shared else { throw TestServerError.noPostgres }
            try await TestCluster.prepared.value
            let directory = DatabaseRoot(path: root + "/another-node").storeDirectory(of: name(database))
            (store, mirror) = try await cluster.openDatabase(name(database), mirror: directory, refreshInterval: nil)
        }
        do {
            try await body(store)
        } catch {
            await mirror?.settle()
            try? store.close()
            throw error
        }
        await mirror?.settle()
        try store.close()
    }

    /// Stops the server as SIGTERM would: requests in flight finish, stores close.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }

    /// Stops the server and removes its root.
    func stopAndRemove() async throws {
        try await stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The client of raw exchanges: as `HTTPClient.shared`, but it asks for no compression and
    /// inflates nothing, so that a test sees the bytes the server sent.
    static let rawClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(decompression: .disabled))

    /// One raw HTTP exchange, for what the typed client never sends (to `path` as the server
    /// knows it: ``serverPath(_:)``).
    func raw(
        _ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil, headers: [(String, String)] = []
    ) async throws -> RawAnswer {
        try await Self.raw(at: url, method, serverPath(path), body: body, token: token, headers: headers)
    }

    /// One raw HTTP exchange with the server at `url` (another process's, say).
    static func raw(
        at url: URL, _ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil, headers: [(String, String)] = []
    ) async throws -> RawAnswer {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await Self.rawClient.execute(request, timeout: .seconds(600))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return RawAnswer(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: String(buffer: bytes))
    }
}

/// A raw answer: status, headers, body, and the body as an error when it is one.
struct RawAnswer: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: String

    var error: ErrorBody? { try? WireJSON.decode(ErrorBody.self, from: Array(body.utf8)) }

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}

enum TestServerError: Error {
    case didNotStart
    /// A server on PostgreSQL, and `RECORDLOG_POSTGRES_URL` is not set.
    case noPostgres
}
