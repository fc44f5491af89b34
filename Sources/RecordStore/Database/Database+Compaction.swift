import RecordLog

extension Database {
    /// Compacts a zone's log, or every zone's (Kafka's log compaction): each record's latest
    /// event is kept and the versions it replaced are removed; deletes older than
    /// `tombstoneRetention` are dropped. Everything committed before the call is compacted.
    /// Reads, queries, views and change tokens answer as before, except that a zone token older
    /// than the newest delete dropped gets `changeTokenExpired` (FORMAT.md §11.1). Writers keep
    /// committing meanwhile.
    ///
    /// ```swift
    /// let reports = try await database.compact(zone: notes)
    /// print(reports.map(\.bytesReclaimed))
    /// ```
    ///
    /// The store's own system partition (zones, subscriptions, indexes) is never compacted.
    ///
    /// - Parameters:
    ///   - zone: the zone to compact; every zone when nil.
    ///   - tombstoneRetention: how long a delete is kept; the policy's when nil.
    /// - Returns: one report per zone compacted, in zone-name order.
    /// - Throws: `zoneNotFound`; `invalidArguments` for a database on a cluster's PostgreSQL,
    ///   whose rows its cluster compacts (`recordlog-server compact-database`, FORMAT.md §14.5),
    ///   not a node's mirror; what the log throws (`LogError`).
    @discardableResult
    public func compact(zone zoneID: ZoneID? = nil, tombstoneRetention: Duration? = nil) async throws -> [CompactionReport] {
        try checkOpen()
        guard !log.isShared else {
            throw RecordStoreError(
                .invalidArguments, "This database lives on a cluster's PostgreSQL: compact its rows with `recordlog-server compact-database --postgres URL NAME`, not through a node's mirror; nothing was changed.")
        }
        let zones = try zoneID.map { [try zone($0)] } ?? state.withLock { Array($0.zones.values) }
        let sorted = zones.sorted { $0.zoneID.zoneName < $1.zoneID.zoneName }
        let reports = try await compactor.compact(sorted.map(\.partition), tombstoneRetention: tombstoneRetention ?? compactor.policy.tombstoneRetention)
        forgetDroppedDeletes(in: sorted.map(\.zoneID))
        return reports
    }

    /// The compaction policy the database was opened with.
    public var compactionPolicy: CompactionPolicy { compactor.policy }
}
