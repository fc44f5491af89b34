import Foundation
import Logging
import RecordStore
import RecordWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a subscription's Server-Sent Events stream into an `AsyncStream` of notifications:
/// opening waits for the server's `ready` event (from then on every commit is delivered); the
/// stream ends when the server ends it or the connection drops, and ending it (the consumer
/// goes) closes the connection.
struct NotificationStream: Sendable {
    let transport: HTTPTransport
    let request: URLRequest
    let logger: Logger

    /// Opens the stream.
    ///
    /// - Parameter failure: the error a non-200 answer means.
    /// - Throws: that error, or ``HTTPRemoteDatabaseError`` when the server cannot be reached or
    ///   ends the stream before `ready`.
    func open(
        failure: @escaping @Sendable (Int, Data) -> (error: any Error, retryAfter: Double?)
    ) async throws -> AsyncStream<SubscriptionNotification> {
        let (notifications, continuation) = AsyncStream<SubscriptionNotification>.makeStream()
        let (ready, readyContinuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let transport = self.transport
        let request = self.request
        let logger = self.logger
        // Cancelling the reader ends its wait for the next chunk, which cancels the request and
        // closes the connection.
        let reader = Task {
            defer { continuation.finish() }
            do {
                let response = try await transport.stream(request)
                guard response.status == 200 else {
                    let body = try await response.collect(upTo: 1 << 20)
                    readyContinuation.finish(throwing: failure(response.status, body).error)
                    return
                }
                var parser = ServerSentEventParser()
                var isReady = false
                for try await chunk in response.body {
                    for event in parser.feed(chunk) {
                        switch event.name {
                        case NotificationEvent.readyEvent where !isReady:
                            isReady = true
                            readyContinuation.yield(())
                            readyContinuation.finish()
                        case NotificationEvent.notificationEvent:
                            do {
                                continuation.yield(try WireBodies.notification(fromEventData: event.data))
                            } catch {
                                logger.warning("skipping a notification that does not decode", metadata: ["error": "\(error)"])
                            }
                        default:
                            break
                        }
                    }
                }
                if !isReady {
                    readyContinuation.finish(throwing: HTTPRemoteDatabaseError(.unexpectedResponse, "The notification stream ended before it was ready."))
                }
            } catch {
                // Before `ready` this is the caller's error; after it, the stream just ends.
                readyContinuation.finish(
                    throwing: error as? HTTPRemoteDatabaseError ?? (error as? RecordStoreError).map { $0 as any Error }
                        ?? HTTPRemoteDatabaseError(.unavailable, "The notification stream failed: \(error)"))
                logger.debug("notification stream ended", metadata: ["error": "\(error)"])
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        try await withTaskCancellationHandler {
            for try await _ in ready { break }
        } onCancel: {
            reader.cancel()
        }
        try Task.checkCancellation()
        return notifications
    }
}
