import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of ``HTTPTransport``, from `resume()` to its end: what the session's delegate
/// hears about the task — the answer's head, its body chunks, the end — handed to whoever waits.
///
/// Concurrency: delegate events arrive on the session's serial delegate queue, in order (head,
/// chunks, end). The caller waits in ``start(_:connectTimeout:)``; a task cancellation, the consumer of the body
/// going away or the connect watchdog may end the exchange from any thread. A mutex orders
/// them: the first ending wins, and every later event — URLSession still reports the
/// cancellation it was asked for — is ignored. Body chunks go into an `AsyncThrowingStream`
/// without the lock: yielding to a finished stream does nothing.
final class HTTPExchange: Sendable {
    /// The task this exchange is; cancelled when the exchange ends early.
    let task: URLSessionDataTask
    /// Whether the request carries a body, whose first byte taken by the connection proves the
    /// connection was made.
    private let hasBody: Bool
    private let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    private let state: Mutex<State>

    private struct State {
        /// The caller waiting for the answer's head; `nil` before ``start(_:connectTimeout:)`` and once resumed.
        var head: CheckedContinuation<HTTPTransport.StreamedResponse, any Error>?
        /// The answer's body, until handed over with the head: from then on only its reader
        /// holds it, so that dropping it cancels the task.
        var body: AsyncThrowingStream<Data, any Error>?
        var headReceived = false
        /// Whether the connection has taken a byte of the request's body.
        var bodySent = false
        var finished = false
        /// Ends the exchange if no connection is made in time; cancelled once one is.
        var watchdog: Task<Void, Never>?
    }

    init(task: URLSessionDataTask, hasBody: Bool) {
        self.task = task
        self.hasBody = hasBody
        let (body, bodyContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        self.bodyContinuation = bodyContinuation
        state = Mutex(State(body: body))
        // The body's reader went away or was cancelled before the end: close the connection.
        bodyContinuation.onTermination = { [task] termination in
            if case .cancelled = termination { task.cancel() }
        }
    }

    // MARK: The caller's side

    /// Resumes the task; `head` is resumed with the answer's head or with the failure before it.
    /// Past `connectTimeout` with no byte of a body sent and no answer, the exchange fails as
    /// ``HTTPTransportError/Kind/failedBeforeSending``.
    func start(_ head: CheckedContinuation<HTTPTransport.StreamedResponse, any Error>, connectTimeout: Duration) {
        let cancelledAlready = state.withLock { state in
            guard !state.finished else { return true }
            state.head = head
            if hasBody {
                state.watchdog = Task { [weak self] in
                    try? await Task.sleep(for: connectTimeout)
                    guard !Task.isCancelled else { return }
                    self?.connectTimedOut(after: connectTimeout)
                }
            }
            return false
        }
        guard !cancelledAlready else {
            head.resume(throwing: CancellationError())
            return
        }
        task.resume()
    }

    /// Ends the exchange with `CancellationError` and closes its connection.
    func cancel() {
        finish(throwing: CancellationError())
        task.cancel()
    }

    // MARK: The delegate's side

    func received(_ response: URLResponse) {
        let (head, body, watchdog) = state.withLock { state in
            state.headReceived = true
            return (state.head.take(), state.body.take(), state.watchdog.take())
        }
        watchdog?.cancel()
        guard let head, let body else { return }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        head.resume(returning: HTTPTransport.StreamedResponse(status: status, body: body))
    }

    func received(_ data: Data) {
        bodyContinuation.yield(data)
    }

    func sentBodyBytes() {
        state.withLock { state in
            state.bodySent = true
            return state.watchdog.take()
        }?.cancel()
    }

    /// The task ended: with `nil`, the answer is complete.
    func completed(_ error: (any Error)?) {
        guard let error else {
            let answered = state.withLock { $0.headReceived }
            if answered {
                finish(throwing: nil)
            } else {
                finish(throwing: HTTPTransportError(.possiblySent, "The connection ended without an answer."))
            }
            return
        }
        let beforeSending = state.withLock { state in
            Self.failedBeforeSending(error, hasBody: hasBody, bodySent: state.bodySent, headReceived: state.headReceived)
        }
        finish(throwing: HTTPTransportError(beforeSending ? .failedBeforeSending : .possiblySent, Self.describe(error)))
    }

    // MARK: Ending

    private func connectTimedOut(after timeout: Duration) {
        let stillConnecting = state.withLock { !$0.finished && !$0.headReceived && !$0.bodySent }
        guard stillConnecting else { return }
        finish(throwing: HTTPTransportError(.failedBeforeSending, "No connection within \(timeout)."))
        task.cancel()
    }

    /// Ends the exchange once: the waiting caller gets the failure (or, past the head, the
    /// body's reader does); `nil` ends the body normally.
    private func finish(throwing error: (any Error)?) {
        let ending = state.withLock { state -> (head: CheckedContinuation<HTTPTransport.StreamedResponse, any Error>?, watchdog: Task<Void, Never>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            return (state.head.take(), state.watchdog.take())
        }
        guard let ending else { return }
        ending.watchdog?.cancel()
        ending.head?.resume(throwing: error ?? HTTPTransportError(.possiblySent, "The exchange ended without an answer."))
        bodyContinuation.finish(throwing: error)
    }

    /// Whether no byte of the request can have reached the server: no connection could be made
    /// (refused, no such host), or the request has a body and the connection never took a byte
    /// of it (a server acts on a request only once its whole body has come).
    private static func failedBeforeSending(_ error: any Error, hasBody: Bool, bodySent: Bool, headReceived: Bool) -> Bool {
        if let error = error as? URLError, [.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed].contains(error.code) {
            return true
        }
        return hasBody && !bodySent && !headReceived
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return String(describing: error) }
        return "\(error.localizedDescription) (URLError \(error.code.rawValue))"
    }
}
