import Logging
import NIOCore
import PostgresNIO
import RecordLog
import RecordStore

/// One node's connection to a cluster's PostgreSQL: the pool every database it serves shares,
/// the catalog of databases (their token digests), and the way a node opens a database — as a
/// mirror in front of the shared rows (``PostgresMirrorLog``).
///
/// ```swift
/// let cluster = try PostgresCluster(url: "postgres://recordlog@db:5432/recordlog")
/// async let running: Void = cluster.run()          // the connection pool's work
/// try await cluster.prepare()                       // tables created when missing
/// let (database, mirror) = try await cluster.openDatabase("notes", mirror: "/var/cache/recordlog/notes")
/// ```
package final class PostgresCluster: Sendable {
    private let client: PostgresClient
    private let logger: Logger

    /// A node of the cluster at `url` (`postgres://user[:password]@host[:port]/database`),
    /// opening at most `connections` connections at once.
    ///
    /// - Throws: `PostgresLogError` (`badLocation`).
    package init(url: String, connections: Int = 20, logger: Logger = Logger(label: "RecordPostgres")) throws {
        var configuration = try PostgresLocation(url: url).configuration
        configuration.options.maximumConnections = max(1, connections)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until the calling task is cancelled.
    package func run() async {
        await client.run()
    }

    /// Runs `body` with a node of the cluster at `url` whose tables exist, and stops its
    /// connections when `body` returns or throws.
    package static func with<Result: Sendable>(
        url: String, connections: Int = 20, logger: Logger = Logger(label: "RecordPostgres"),
        _ body: (PostgresCluster) async throws -> Result
    ) async throws -> Result {
        let cluster = try PostgresCluster(url: url, connections: connections, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await cluster.run() }
            defer { group.cancelAll() }
            try await cluster.prepare()
            return try await body(cluster)
        }
    }

    /// Creates the tables when missing (FORMAT.md §14).
    package func prepare() async throws {
        try await PostgresSchema.create(on: client, logger: logger)
    }

    /// The rows of database `name`.
    package func log(of name: String) -> PostgresLog {
        PostgresLog(client: client, database: name, logger: logger)
    }

    /// Opens database `name` on this node, its mirror in `directory` (created when missing,
    /// checked against the rows and caught up: ``PostgresMirrorLog/open(directory:remote:logger:)``).
    ///
    /// A database no node has opened yet gets its identity here; two nodes doing that at once
    /// are ordered by the fence, and the one refused opens again, a few times.
    ///
    /// - Parameters:
    ///   - refreshInterval: how often the database looks for other nodes' commits by itself, so
    ///     that its subscriptions hear them (nil: only when its owner refreshes it).
    ///   - compaction: when this node re-batches the small commits it wrote
    ///     (``CompactionPolicy/rebatchingBytes``; `.manual`: never), as an incremental
    ///     compaction of the zone's newest rows older than `compactionLag` (FORMAT.md §14.5).
    /// - Throws: `LogError` (`sharedLogUnavailable` when PostgreSQL cannot be reached, `locked`
    ///   when another process has the mirror open); the store's error for an event it cannot read.
    package func openDatabase(
        _ name: String, mirror directory: String, refreshInterval: Duration? = .milliseconds(25), compaction: CompactionPolicy = .manual,
        compactionLag: Duration = .seconds(5), logger: Logger? = nil
    ) async throws -> (database: Database, mirror: PostgresMirrorLog) {
        let logger = logger ?? self.logger
        var attempt = 0
        while true {
            attempt += 1
            let mirror = try await PostgresMirrorLog.open(directory: directory, remote: log(of: name), compactionLag: compactionLag, logger: logger)
            do {
                let database = try await Database(
                    directory: directory, sharedLog: mirror, compaction: compaction, refreshInterval: refreshInterval, logger: logger)
                return (database, mirror)
            } catch {
                await mirror.settle()
                try? mirror.close()
                guard attempt < 4, case LogError.fenced = error else { throw error }
            }
        }
    }

    /// The write lease of database `name` on this node: one per database per node, shared by
    /// every write request to it (``PostgresWriteLease``).
    package func writeLease(of name: String) -> PostgresWriteLease {
        PostgresWriteLease(client: client, database: name, logger: logger)
    }

    // MARK: The catalog

    /// Records a new database and its token's digest; false when the name is taken.
    package func createDatabase(_ name: String, digest: [UInt8]) async throws -> Bool {
        let rows = try await client.query(
            "INSERT INTO recordlog_tokens (database, digest) VALUES (\(name), \(ByteBuffer(bytes: digest))) ON CONFLICT DO NOTHING RETURNING database",
            logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Replaces a database's token digest; false when there is no such database.
    package func replaceDigest(of name: String, with digest: [UInt8]) async throws -> Bool {
        let rows = try await client.query(
            "UPDATE recordlog_tokens SET digest = \(ByteBuffer(bytes: digest)) WHERE database = \(name) RETURNING database", logger: logger)
        for try await _ in rows { return true }
        return false
    }

    /// Every database's token digest, by name.
    package func digests() async throws -> [String: [UInt8]] {
        let rows = try await client.query("SELECT database, digest FROM recordlog_tokens", logger: logger)
        var digests: [String: [UInt8]] = [:]
        for try await (name, digest) in rows.decode((String, ByteBuffer).self) { digests[name] = Array(digest.readableBytesView) }
        return digests
    }
}
