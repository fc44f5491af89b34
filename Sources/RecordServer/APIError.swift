import RecordWire

/// An error the server answers itself, not the store: authentication, throttling, a malformed
/// body, an unknown path. The error middleware turns it into an error body with its code's
/// status.
struct APIError: Error, CustomStringConvertible {
    var code: ServerErrorCode
    var reason: String
    /// Seconds the client should wait before trying again.
    var retryAfter: Double?

    init(_ code: ServerErrorCode, _ reason: String, retryAfter: Double? = nil) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
    }

    var description: String { "\(code.rawValue): \(reason)" }
}
