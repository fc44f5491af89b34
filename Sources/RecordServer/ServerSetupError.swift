/// Why a server root could not be read or changed: the errors `recordlog-server` prints before
/// serving anything, or when administering a root.
public enum ServerSetupError: Error, Equatable, CustomStringConvertible {
    /// The name breaks ``DatabaseName``'s rules.
    case invalidDatabaseName(String)
    /// `create-database` for a name the root already has.
    case databaseExists(String)
    /// `rotate-token` for a name the root does not have.
    case unknownDatabase(String)
    /// A line of the token file is not `NAME SHA256-HEX`.
    case damagedTokenFile(path: String, line: Int)
    /// Only one of the certificate and the key was given, or one cannot be read.
    case invalidTLS(String)
    /// The cluster's PostgreSQL refused the command or could not be reached; the text is its own.
    case postgres(String)

    public var description: String {
        switch self {
        case .invalidDatabaseName(let name):
            "\"\(name)\" is not a valid database name: use 1 to \(DatabaseName.maximumLength) letters, digits, '-' and '_', starting with a letter or digit."
        case .databaseExists(let name):
            "The database \"\(name)\" exists already; use rotate-token for a new token."
        case .unknownDatabase(let name):
            "There is no database \"\(name)\" in this root; list-databases shows those there are."
        case .damagedTokenFile(let path, let line):
            "Line \(line) of \(path) is not \"NAME SHA256-HEX\"; fix the line, or remove it and create the database's token again with rotate-token."
        case .invalidTLS(let reason):
            "TLS: \(reason)"
        case .postgres(let reason):
            "PostgreSQL: \(reason)"
        }
    }
}
