/// Why ``HTTPTransport`` has no answer to give: the exchange failed on the way, or the answer
/// is larger than the caller takes. ``HTTPRemoteDatabase`` turns it into an
/// ``HTTPRemoteDatabaseError`` after its retries.
struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        /// No byte of the request reached a connection (refused, no such host, no connection
        /// within the connect timeout, a TLS handshake that failed): sending it again cannot
        /// apply it twice.
        case failedBeforeSending
        /// The connection failed after the request may have reached the server.
        case possiblySent
        /// The answer's body is larger than the caller's limit; the exchange was cancelled.
        case answerTooLarge
    }

    var kind: Kind
    /// What happened, for a person (URLSession's error, or the transport's own words).
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }
}
