import Hummingbird
import NIOCore
import RecordWire

/// `/health` and `/metrics`, which need no token: what a load balancer and Prometheus read.
struct OperationsRoutes: Sendable {
    let registry: DatabaseRegistry
    let metrics: ServerMetrics

    /// Registers `/health` and `/metrics`; returns them as (method, path) pairs.
    @discardableResult
    func add(to router: Router<ServerRequestContext>) -> [(method: String, path: String)] {
        router.get(.init(stringLiteral: APIPath.health)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}")))
        }
        router.get(.init(stringLiteral: APIPath.metrics)) { _, _ in
            await registry.reportSyncs()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        return [("GET", APIPath.health), ("GET", APIPath.metrics)]
    }
}
