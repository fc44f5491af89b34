/// Why a body is not what the API expects: where (a key path such as `saves[0].fields.title`)
/// and what was wrong, in words a client developer can act on. The server answers it as 400
/// `BAD_REQUEST`; the client as an unexpected answer.
package struct WireDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key path of the offending value; empty for the body itself.
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path.isEmpty ? "the body" : path): \(reason)" }
}
