/// Why an ``HTTPRemoteDatabase`` call failed without a store error to show for it: the server
/// refused the token, could not be reached, or answered something that is not the API.
///
/// Every error the *store* behind the server raised comes back as the same `RecordStoreError`
/// (code, message, conflict records, partial errors), so sync code handles those as it would a
/// local database's; this type is only for what a local database never does.
public struct HTTPRemoteDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// No token, or a token that is no database's (rotated, mistyped): HTTP 401.
        case authenticationFailed
        /// The token is another database's: HTTP 403.
        case accessDenied
        /// The server stayed unavailable (503, 429, no connection) through every retry.
        case unavailable
        /// The connection failed after the request may have reached the server, for a call that
        /// is not safe to repeat (a modify without a client change token, a delete).
        case transport
        /// The server answered something that is not this API (another service, a proxy's page).
        case unexpectedResponse
    }

    public var kind: Kind
    /// What went wrong, for a person: the server's reason when it gave one.
    public var message: String
    /// The HTTP status, when there was an answer.
    public var status: Int?
    /// The server's request ID, to find the request in its log.
    public var requestID: String?

    public init(_ kind: Kind, _ message: String, status: Int? = nil, requestID: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.requestID = requestID
    }

    public var description: String {
        var text = message
        if let status { text += " (HTTP \(status)" + (requestID.map { ", request \($0))" } ?? ")") }
        return text
    }
}
