import RecordPostgres

/// A cluster's databases on PostgreSQL, as `recordlog-server create-database --postgres URL`,
/// `rotate-token` and `list-databases` change and read them: the `recordlog_tokens` rows every
/// node verifies tokens against (within a second of a change). A database's records are created
/// by the first node that serves it.
///
/// ```swift
/// let cluster = ClusterDatabases(url: "postgres://recordlog@db:5432/recordlog")
/// let token = try await cluster.createDatabase("notes")   // give this to the database's devices
/// ```
public struct ClusterDatabases: Sendable {
    /// The `postgres://` URL of the cluster's PostgreSQL.
    public let url: String

    /// The cluster at `url`.
    public init(url: String) { self.url = url }

    /// Creates a database and its token; the token's digest becomes a row.
    ///
    /// - Returns: the new token; it is stored nowhere, so show it to the operator once.
    /// - Throws: ``ServerSetupError/invalidDatabaseName(_:)``, ``ServerSetupError/databaseExists(_:)``,
    ///   or ``ServerSetupError/postgres(_:)``.
    public func createDatabase(_ name: String) async throws -> String {
        guard DatabaseName.isValid(name) else { throw ServerSetupError.invalidDatabaseName(name) }
        let token = AccessToken.generate()
        let created = try await onCluster { cluster in
            try await cluster.createDatabase(name, digest: AccessToken.digest(of: token))
        }
        guard created else { throw ServerSetupError.databaseExists(name) }
        return token
    }

    /// Replaces a database's token with a new one; every node refuses the old one within a second.
    ///
    /// - Throws: ``ServerSetupError/unknownDatabase(_:)``, or ``ServerSetupError/postgres(_:)``.
    public func rotateToken(_ name: String) async throws -> String {
        let token = AccessToken.generate()
        let replaced = try await onCluster { cluster in
            try await cluster.replaceDigest(of: name, with: AccessToken.digest(of: token))
        }
        guard replaced else { throw ServerSetupError.unknownDatabase(name) }
        return token
    }

    /// The cluster's databases, sorted by name.
    public func listDatabases() async throws -> [String] {
        try await onCluster { cluster in try await cluster.digests().keys.sorted() }
    }

    /// Runs `body` on one connection to the cluster; PostgreSQL's failures become
    /// ``ServerSetupError/postgres(_:)`` with PostgreSQL's own words.
    private func onCluster<Result: Sendable>(_ body: (PostgresCluster) async throws -> Result) async throws -> Result {
        do {
            return try await PostgresCluster.with(url: url, connections: 1, body)
        } catch let error as ServerSetupError {
            throw error
        } catch let error as PostgresLogError {
            throw ServerSetupError.postgres(error.description)
        } catch {
            throw ServerSetupError.postgres(String(reflecting: error))
        }
    }
}
