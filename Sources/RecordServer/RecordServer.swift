import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore
import Prometheus
import RecordPostgres
import RecordWire
import ServiceLifecycle

/// `recordlog-server`: a root of databases behind a JSON API modelled on CloudKit Web Services
/// (docs/openapi.yaml), each database behind its own bearer token, with push notifications over
/// Server-Sent Events, `/health` and Prometheus `/metrics`.
///
/// A `Service`: run it in a `ServiceGroup`, whose graceful shutdown (SIGTERM) stops accepting
/// connections, ends the notification streams, lets the requests in flight finish — each
/// acknowledged commit is durable before its answer is sent — and then closes every store.
///
/// ```swift
/// let server = RecordServer(configuration: .init(root: "/srv/recordlog", port: 0)) { host, port in
///     print("listening on http://\(host):\(port)")
/// }
/// try await ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger)).run()
/// ```
public struct RecordServer: Service {
    private let configuration: RecordServerConfiguration
    private let logger: Logger
    private let metricsRegistry: PrometheusCollectorRegistry
    private let onListening: @Sendable (_ host: String, _ port: Int) async -> Void

    /// A server for `configuration`'s root.
    ///
    /// - Parameters:
    ///   - logger: where requests and failures are logged (each line with its request ID).
    ///   - metricsRegistry: the Prometheus registry `/metrics` prints; the server records into it
    ///     through swift-metrics without touching the global `MetricsSystem`.
    ///   - onListening: called once the socket is bound, with the host and the actual port
    ///     (useful with port 0).
    public init(
        configuration: RecordServerConfiguration, logger: Logger = Logger(label: "recordlog-server"),
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        self.onListening = onListening
    }

    /// Serves until cancelled or shut down gracefully, then closes every store.
    ///
    /// - Throws: ``ServerSetupError/invalidTLS(_:)``, or the socket's error (an address in use).
    public func run() async throws {
        let root = DatabaseRoot(path: configuration.root)
        try FileManager.default.createDirectory(atPath: root.path, withIntermediateDirectories: true)
        guard let url = configuration.postgres else { return try await serve(.files(root)) }
        let cluster = try PostgresCluster(url: url, connections: configuration.postgresConnections, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await cluster.run() }
            defer { group.cancelAll() }
            try await cluster.prepare()
            try await serve(.postgres(cluster, cache: root))
        }
    }

    /// Serves the databases of `storage` until cancelled or shut down gracefully.
    private func serve(_ storage: DatabaseStorage) async throws {
        let metrics = ServerMetrics(registry: metricsRegistry)
        let registry = DatabaseRegistry(storage: storage, configuration: configuration, metrics: metrics, logger: logger)
        let router = makeRouter(registry: registry, metrics: metrics).router
        let host = configuration.host
        let onListening = self.onListening
        let logger = self.logger
        let app = Application(
            router: router, server: try serverBuilder(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: "recordlog-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("listening", metadata: ["host": "\(host)", "port": "\(port)"])
                await onListening(host, port)
            },
            logger: logger)
        do {
            try await app.run()
        } catch {
            await registry.closeAll()
            throw error
        }
        await registry.closeAll()
        logger.info("stopped; every store closed")
    }

    /// The router: metrics and errors around everything, `/health` and `/metrics` open, the
    /// database paths behind their tokens.
    private func makeRouter(
        registry: DatabaseRegistry, metrics: ServerMetrics
    ) -> (router: Router<ServerRequestContext>, routes: [(method: String, path: String)]) {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        let table = RouteTable()
        router.add(middleware: ErrorMiddleware(routes: table))
        var routes = OperationsRoutes(registry: registry, metrics: metrics).add(to: router)
        let databases = router.group(RouterPath(stringLiteral: APIPath.databasePrefix + "/{database}"))
        databases.add(
            middleware: AuthMiddleware(
                verifier: TokenVerifier(storage: registry.storage, logger: logger), registry: registry,
                throttledRetryAfter: configuration.throttledRetryAfter, maximumBodySize: configuration.maximumRequestBodySize))
        let prefix = APIPath.databasePrefix + "/{database}/"
        routes += DatabaseRoutes(registry: registry, metrics: metrics, configuration: configuration).add(to: databases)
            .map { ($0.method, prefix + $0.path) }
        table.set(routes)
        return (router, routes)
    }

    /// Every route the server answers, as (method, path pattern) pairs — `/health`, and
    /// `/v1/databases/{database}/records/modify` and the rest: what the OpenAPI document must
    /// list, path for path.
    package func routes() -> [(method: String, path: String)] {
        let root = DatabaseRoot(path: configuration.root)
        let metrics = ServerMetrics(registry: PrometheusCollectorRegistry())
        let registry = DatabaseRegistry(storage: .files(root), configuration: configuration, metrics: metrics, logger: logger)
        return makeRouter(registry: registry, metrics: metrics).routes
    }

    /// HTTP/1.1, over TLS when a certificate and key are configured.
    private func serverBuilder() throws -> HTTPServerBuilder {
        guard let tls = configuration.tls else { return .http1() }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(tls.certificatePath).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(file: tls.privateKeyPath, format: .pem)
            return try .tls(.http1(), tlsConfiguration: TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        } catch {
            throw ServerSetupError.invalidTLS("cannot use \(tls.certificatePath) and \(tls.privateKeyPath): \(error)")
        }
    }
}
