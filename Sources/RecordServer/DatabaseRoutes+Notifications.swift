import Foundation
import Hummingbird
import NIOCore
import RecordStore
import RecordWire
import ServiceLifecycle

extension DatabaseRoutes {
    /// One line group of the stream.
    private enum StreamEvent: Sendable {
        case notification(SubscriptionNotification)
        case heartbeat
    }

    /// `GET subscriptions/{subscriptionID}/notifications`: the subscription's notifications as
    /// Server-Sent Events, each after its commit is durable (the store sends them then).
    ///
    /// The stream opens with `event: ready`: every commit after it is delivered. A comment line
    /// every heartbeat interval lets both ends notice a dead connection. The stream ends when the
    /// subscription is deleted, the client goes, or the server stops (gracefully: streams end
    /// first, so that they do not hold the shutdown). A client that reconnects fetches changes
    /// from its tokens, which misses nothing: notifications only say when to fetch.
    func notifications(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        // The router hands over the path segment as sent: percent-escapes undone here.
        guard let subscriptionID = context.parameters.get("subscriptionID")?.removingPercentEncoding else {
            throw APIError(.unknownPath, "The path names no subscription.")
        }
        let (_, database) = try await database(context)
        // Subscribed before the answer starts, so nothing committed after `ready` is missed.
        let notifications = try database.notifications(for: subscriptionID)
        let heartbeat = configuration.heartbeatInterval
        let metrics = self.metrics
        let logger = context.logger
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            metrics.activeStreams.increment()
            defer { metrics.activeStreams.decrement() }
            try await writer.write(Self.event(NotificationEvent.readyEvent, data: "{\"subscriptionID\":\(Self.jsonString(subscriptionID))}"))
            let (events, continuation) = AsyncStream<StreamEvent>.makeStream()
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await notification in notifications { continuation.yield(.notification(notification)) }
                            continuation.finish()
                        }
                        group.addTask {
                            while true {
                                try await Task.sleep(for: heartbeat)
                                continuation.yield(.heartbeat)
                            }
                        }
                        for await event in events.cancelOnGracefulShutdown() {
                            switch event {
                            case .notification(let notification):
                                let data = WireJSON.encode(NotificationEvent(notification))
                                try await writer.write(Self.event(NotificationEvent.notificationEvent, data: String(decoding: data, as: UTF8.self)))
                            case .heartbeat:
                                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            }
                        }
                        group.cancelAll()
                    }
                }
            } catch is CancellationError {
                // The client went: nothing to finish.
                logger.debug("notification stream cancelled")
                return
            }
            try await writer.finish(nil)
        })
    }

    private static func event(_ name: String, data: String) -> ByteBuffer {
        ByteBuffer(string: "event: \(name)\ndata: \(data)\n\n")
    }

    private static func jsonString(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
