import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Logging
import NIOCore
import RecordClient
import RecordServer
import RecordStore
import RecordWire
import ServiceLifecycle

/// A `RecordServer` in this process, on a free loopback port, over a fresh temporary root with
/// the databases a test asks for (each with its token); stopped gracefully by ``stop()``.
struct TestServer: Sendable {
    let root: String
    let url: URL
    let port: Int
    /// Each database's token.
    let tokens: [String: String]
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static func start(
        databases: [String] = ["notes"], root: String? = nil, tokens existing: [String: String] = [:], scheme: String = "http",
        configure: (inout RecordServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let root = root ?? FileManager.default.temporaryDirectory.appendingPathComponent("RecordServerTests-\(UUID().uuidString)").path
        var tokens = existing
        for name in databases where tokens[name] == nil {
            tokens[name] = try await DatabaseRoot(path: root).createDatabase(name)
        }
        var configuration = RecordServerConfiguration(root: root, host: "127.0.0.1", port: 0)
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
        return TestServer(root: root, url: url, port: port, tokens: tokens, group: group, task: task)
    }

    /// The client of `database`, with its token unless told another.
    func remote(_ database: String = "notes", token: String? = nil, retryPolicy: RetryPolicy = RetryPolicy()) -> HTTPRemoteDatabase {
        HTTPRemoteDatabase(url: url, database: database, token: token ?? tokens[database] ?? "", retryPolicy: retryPolicy)
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

    /// One raw HTTP exchange, for what the typed client never sends.
    func raw(
        _ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil, headers: [(String, String)] = []
    ) async throws -> RawAnswer {
        try await Self.raw(at: url, method, path, body: body, token: token, headers: headers)
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
}
