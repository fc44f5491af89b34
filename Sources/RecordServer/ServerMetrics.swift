import Metrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry that
/// `/metrics` prints: requests and their latency by route, method and status, commits (saves and
/// deletes), group fsyncs and requests in flight by database, active notification streams.
///
/// The metrics go through a factory made for this registry, not the global `MetricsSystem`: a
/// library never bootstraps it, and several servers in one process (tests) keep their own.
struct ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// Notification streams open now.
    let activeStreams: Meter

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5),
        ]
        self.factory = factory
        activeStreams = Meter(label: "recordlog_notification_streams_active", factory: factory)
    }

    /// Counts a request and records its latency.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: "recordlog_http_requests_total", dimensions: dimensions, factory: factory).increment()
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        Metrics.Timer(label: "recordlog_http_request_duration_seconds", dimensions: [("method", method), ("route", route)], factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// Counts a commit of `items` saves and deletes in `database`.
    func recordCommit(database: String, items: Int) {
        Counter(label: "recordlog_commits_total", dimensions: [("database", database)], factory: factory).increment()
        Counter(label: "recordlog_committed_items_total", dimensions: [("database", database)], factory: factory).increment(by: items)
    }

    /// The requests in flight for `database` (what throttling counts).
    func requestsInFlight(database: String) -> Meter {
        Meter(label: "recordlog_requests_in_flight", dimensions: [("database", database)], factory: factory)
    }

    /// Adds group fsyncs a database ran since the last call.
    func recordSyncs(database: String, count: Int) {
        guard count > 0 else { return }
        Counter(label: "recordlog_fsyncs_total", dimensions: [("database", database)], factory: factory).increment(by: count)
    }

    /// The metrics in Prometheus' text format.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
