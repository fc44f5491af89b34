import RecordPostgres

/// Where a server's databases live: store directories under its root, or rows of a cluster's
/// PostgreSQL with a mirror of each in the node's cache (the root).
enum DatabaseStorage: Sendable {
    case files(DatabaseRoot)
    case postgres(PostgresCluster, cache: DatabaseRoot)

    /// The directory that holds the databases' stores (or mirrors).
    var root: DatabaseRoot {
        switch self {
        case .files(let root), .postgres(_, let root): root
        }
    }
}
