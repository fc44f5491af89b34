import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPRemoteDatabase``'s HTTP: one `URLSession` (on Linux, FoundationNetworking's, over the
/// system's libcurl) that sends a request and returns the answer's status and body, or opens an
/// answer whose body arrives chunk by chunk (a Server-Sent Events stream).
///
/// ```swift
/// let answer = try await transport.send(request, maximumBodySize: 1 << 20)
/// let stream = try await transport.stream(request)
/// for try await chunk in stream.body { … }
/// ```
///
/// Each request is an ``HTTPExchange``, fed by the session's ``HTTPSessionDelegate``.
/// Cancelling the calling task, or dropping an opened body before its end, cancels the request
/// and closes its connection.
///
/// Failures are ``HTTPTransportError``s telling whether the request may have reached the server
/// (a retry must know), or `CancellationError`. URLSession itself never retries making a
/// connection; it gives up a connection silent for the configuration's
/// `timeoutIntervalForRequest` (on Linux reset by every byte, so it is a silence limit, not a
/// deadline). It has no connect timeout on Linux, so the transport keeps its own: a request
/// with a body whose connection has taken no byte of it after ``connectTimeout`` fails, as sent
/// before anything. (A request without a body — a read, safe to repeat — cannot be told apart
/// from a slow answer and waits for the silence limit.)
final class HTTPTransport: Sendable {
    /// An answer read whole.
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    /// An answer whose body is still arriving: chunks as the connection delivers them; the
    /// sequence ends with the answer and throws ``HTTPTransportError`` if the connection fails.
    struct StreamedResponse: Sendable {
        var status: Int
        var body: AsyncThrowingStream<Data, any Error>

        /// The whole body; throws ``HTTPTransportError/Kind/answerTooLarge`` past `limit` bytes.
        func collect(upTo limit: Int) async throws -> Data {
            var collected = Data()
            for try await chunk in body {
                guard collected.count + chunk.count <= limit else {
                    throw HTTPTransportError(.answerTooLarge, "The answer is larger than \(limit) bytes.")
                }
                collected.append(chunk)
            }
            // A cancelled wait ends the sequence early, as if the body were complete.
            try Task.checkCancellation()
            return collected
        }
    }

    /// The session every `HTTPRemoteDatabase` given no configuration of its own shares: like
    /// the process-wide client it replaces, never invalidated.
    static let shared = HTTPTransport(configuration: defaultConfiguration())

    /// How long a request with a body may wait for its connection.
    let connectTimeout: Duration = .seconds(10)
    private let session: URLSession
    private let delegate: HTTPSessionDelegate

    /// A transport with a session of its own, invalidated when the transport goes.
    init(configuration: URLSessionConfiguration) {
        delegate = HTTPSessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The configuration of ``shared`` (see `HTTPRemoteDatabase.defaultConfiguration`).
    static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        // A connection silent this long is given up; a notification stream hears a heartbeat
        // every 15 seconds.
        configuration.timeoutIntervalForRequest = 60
        // Every open notification stream holds a connection of its own.
        configuration.httpMaximumConnectionsPerHost = 16
        // Answers are never cached, cookies never kept, the token never a stored credential.
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        return configuration
    }

    /// Sends `request` and reads its answer whole.
    ///
    /// - Throws: ``HTTPTransportError``, `CancellationError`.
    func send(_ request: URLRequest, maximumBodySize: Int) async throws -> Response {
        let answer = try await stream(request)
        return Response(status: answer.status, body: try await answer.collect(upTo: maximumBodySize))
    }

    /// Sends `request` and returns once the answer's head has come; its body follows.
    ///
    /// - Throws: ``HTTPTransportError``, `CancellationError`.
    func stream(_ request: URLRequest) async throws -> StreamedResponse {
        let task = session.dataTask(with: request)
        let exchange = HTTPExchange(task: task, hasBody: request.httpBody?.isEmpty == false)
        delegate.register(exchange)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { head in
                exchange.start(head, connectTimeout: connectTimeout)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
