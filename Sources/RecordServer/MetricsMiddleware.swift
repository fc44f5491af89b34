import Hummingbird

/// The outermost middleware: counts every request and times it, by method, route (the route's
/// pattern, not the path, so that names do not multiply series) and status.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // The error middleware inside answers every error, so `next` throws only on a bug.
        let response = try await next(request, context)
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unknown", status: response.status.code,
            duration: ContinuousClock.now - start)
        return response
    }
}
