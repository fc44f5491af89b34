import Foundation

/// What `notes sync --remote` names: another store directory, or a database on a
/// `recordlog-server` (a URL, with the database's name and token).
package enum NotesRemote: Equatable, Sendable {
    case directory(String)
    case server(url: URL, database: String, token: String)

    /// The environment variable a server's token may come from instead of `--token`.
    package static let tokenVariable = "RECORDLOG_TOKEN"

    /// Reads the sync options: an `http://` or `https://` remote is a server, which needs a
    /// database name and a token (`--token`, else `$RECORDLOG_TOKEN`); anything else is a
    /// directory, which takes neither.
    ///
    /// - Throws: ``NotesRemoteError`` saying which option is missing or out of place.
    package static func resolve(
        remote: String, database: String?, token: String?, environment: [String: String]
    ) throws(NotesRemoteError) -> NotesRemote {
        let lowered = remote.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            guard database == nil, token == nil else { throw .serverOptionsForDirectory }
            return .directory(remote)
        }
        guard let url = URL(string: remote), url.host != nil else { throw .invalidURL(remote) }
        guard let database, !database.isEmpty else { throw .missingDatabase }
        guard let token = token ?? environment[tokenVariable], !token.isEmpty else { throw .missingToken }
        return .server(url: url, database: database, token: token)
    }
}

/// Why the sync options do not name a remote.
package enum NotesRemoteError: Error, Equatable, CustomStringConvertible {
    case invalidURL(String)
    case missingDatabase
    case missingToken
    case serverOptionsForDirectory

    package var description: String {
        switch self {
        case .invalidURL(let text): "\(text.debugDescription) is not a server URL (http://HOST:PORT)"
        case .missingDatabase: "a server remote needs --database NAME"
        case .missingToken: "a server remote needs the database's token: --token TOKEN or $\(NotesRemote.tokenVariable)"
        case .serverOptionsForDirectory: "--database and --token go with a server URL, not a store directory"
        }
    }
}
