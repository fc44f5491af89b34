import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of ``HTTPTransport``'s session: hands each task's events to its
/// ``HTTPExchange``.
///
/// Why a session delegate: on Linux (swift-corelibs-foundation) a task's body arrives chunk by
/// chunk, without being buffered, only through the session's delegate — a per-task delegate is
/// honoured only by the `async` convenience methods, which keep the whole body in memory until
/// the end (for a notification stream, until the connection drops).
///
/// URLSession calls it on the session's serial delegate queue, so one task's events come in
/// order; the table of exchanges is locked because callers register from any thread.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: HTTPExchange]>([:])

    /// Routes `exchange.task`'s events to `exchange` until the task completes. Call before
    /// resuming the task.
    func register(_ exchange: HTTPExchange) {
        exchanges.withLock { $0[exchange.task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> HTTPExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sentBodyBytes()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.completed(error)
    }

    /// The API's token goes in a header, never as a URLSession credential, so a challenge is
    /// never answered. On Linux a 401 naming Basic or Digest in `WWW-Authenticate` (a proxy's,
    /// say; the server's `Bearer` raises none) is a challenge only once its answer is complete,
    /// and with no credential to use the task then waits forever (seen with Swift 6.3.1): the
    /// head and body already delivered are the answer, so the exchange ends with them and the
    /// challenge is cancelled. Elsewhere URLSession's default handling applies.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // Linux raises no challenge about a server's certificate: this is an HTTP one.
        exchange(for: task)?.completed(nil)
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
