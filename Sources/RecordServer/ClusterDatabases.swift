import Foundation
import Logging
import RecordLog
import RecordPostgres
import RecordStore

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

    /// What an export or an import copied.
    public struct TransferReport: Sendable, Equatable {
        /// Zones (partitions) copied, the system partition included.
        public var zones: Int
        /// Batches (commits) copied.
        public var batches: Int
        /// Bytes of batches copied.
        public var bytes: Int
    }

    /// Writes database `name` into `directory` (new or empty) as an ordinary store, fsync'd.
    ///
    /// - Throws: ``ServerSetupError/unknownDatabase(_:)``; ``ServerSetupError/postgres(_:)``;
    ///   the files' error (a directory that is not empty).
    public func exportDatabase(_ name: String, to directory: String) async throws -> TransferReport {
        guard try await listDatabases().contains(name) else { throw ServerSetupError.unknownDatabase(name) }
        let report = try await onCluster { cluster in
            try await PostgresTransfer.export(cluster.log(of: name), to: directory, logger: Logger(label: "recordlog-server"))
        }
        return TransferReport(zones: report.zones, batches: report.batches, bytes: report.bytes)
    }

    /// Makes the store in `directory` the new database `name`, and gives it a token.
    ///
    /// - Returns: what was copied, and the new token (stored nowhere: show it once).
    /// - Throws: ``ServerSetupError/invalidDatabaseName(_:)``, ``ServerSetupError/databaseExists(_:)``,
    ///   ``ServerSetupError/postgres(_:)`` (a compacted store among others); the files' error.
    public func importDatabase(_ name: String, from directory: String) async throws -> (report: TransferReport, token: String) {
        guard DatabaseName.isValid(name) else { throw ServerSetupError.invalidDatabaseName(name) }
        guard try await !listDatabases().contains(name) else { throw ServerSetupError.databaseExists(name) }
        let report = try await onCluster { cluster in
            try await PostgresTransfer.importStore(from: directory, into: cluster.log(of: name), logger: Logger(label: "recordlog-server"))
        }
        let token = try await createDatabase(name)
        return (TransferReport(zones: report.zones, batches: report.batches, bytes: report.bytes), token)
    }

    /// What a compaction did to one zone's rows.
    public struct ZoneCompaction: Sendable, Equatable {
        /// The zone.
        public var zone: String
        /// Bytes of the zone's batches, before and after.
        public var bytesBefore: Int64
        public var bytesAfter: Int64
        /// Records removed: versions a later save or delete of the same record replaced, and
        /// deletes dropped.
        public var recordsRemoved: Int
        /// Deletes dropped, past the retention.
        public var deletesDropped: Int
    }

    /// Compacts every zone of database `name` (its system partition excepted, as in a store on
    /// files): each record's latest event is kept and small commits are merged into batches that
    /// compress, and the cleaned batches replace the zone's rows in one fenced transaction
    /// (FORMAT.md §14.5). Safe while the cluster serves the database: commits made meanwhile
    /// are kept as they are.
    ///
    /// - Parameter tombstoneRetention: how long a delete is kept after its commit; older ones
    ///   are dropped, and a device whose change token predates one gets `changeTokenExpired`
    ///   (it then fetches from nil). Nil keeps every delete: no token expires.
    /// - Returns: one entry per zone whose rows changed, in zone-name order.
    /// - Throws: ``ServerSetupError/unknownDatabase(_:)``; ``ServerSetupError/postgres(_:)``
    ///   (another compaction of the same zone finished first, among others).
    public func compactDatabase(_ name: String, tombstoneRetention: Duration? = nil) async throws -> [ZoneCompaction] {
        guard try await listDatabases().contains(name) else { throw ServerSetupError.unknownDatabase(name) }
        return try await onCluster { cluster in
            let log = cluster.log(of: name)
            var compacted: [ZoneCompaction] = []
            for zone in try await log.heads().keys.sorted() where zone != StoredEvent.systemPartition {
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-compaction-\(UUID().uuidString)").path
                guard
                    let report = try await PostgresCompaction.compact(
                        log, zone: zone, tombstoneRetention: tombstoneRetention, scratch: scratch, logger: Logger(label: "recordlog-server"))
                else { continue }
                compacted.append(
                    ZoneCompaction(
                        zone: zone, bytesBefore: report.bytesBefore, bytesAfter: report.bytesAfter, recordsRemoved: report.recordsRemoved,
                        deletesDropped: report.tombstonesDropped))
            }
            return compacted
        }
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
        } catch let error as LogError {
            throw error
        } catch {
            throw ServerSetupError.postgres(String(reflecting: error))
        }
    }
}
