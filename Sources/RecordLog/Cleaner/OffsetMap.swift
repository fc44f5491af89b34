/// The latest event of each key in the part of a partition a compaction cleans (Kafka's
/// cleaner `OffsetMap`, with whole keys rather than digests, so that no two keys can collide),
/// and the verdict on every record that follows from it.
///
/// A record with a null key has no later version: it is always kept. Otherwise a record is
/// kept when it is its key's latest event, unless it is a tombstone older than the retention.
struct OffsetMap {
    /// A key's latest event: its offset, and its timestamp when it is a tombstone.
    struct Latest {
        var offset: Int64
        var tombstoneTimestamp: Int64?
    }

    enum Verdict: Equatable {
        case keep
        /// A later event of the same key replaces it.
        case superseded
        /// The key's latest event, a delete, past its retention.
        case expiredTombstone
    }

    private(set) var latest: [[UInt8]: Latest] = [:]
    /// ``CompactionOptions/keptHeader``: its last carrier's commit is kept whatever the rules.
    let keptHeader: String?
    /// The events kept whatever the rules — the records of the kept header's last carrier's
    /// batch stamped with its timestamp (its commit) — by offset, with their keys.
    private(set) var pinned: [Int64: [UInt8]?] = [:]
    /// The keys of the pinned events.
    private var pinnedKeys: Set<[UInt8]> = []
    /// With a kept header: the records of the batch being noted, so far.
    private var batchRecords: [(offset: Int64, timestamp: Int64, key: [UInt8]?)] = []

    init(keptHeader: String? = nil) {
        self.keptHeader = keptHeader
    }

    /// Call before noting the records of each batch.
    mutating func startBatch() {
        batchRecords.removeAll(keepingCapacity: true)
    }

    /// Notes `record` as its key's latest event so far; returns the offset of the event it
    /// replaces, if the map held one. A carrier of the kept header pins its commit instead of
    /// the one pinned so far.
    mutating func note(_ record: BorrowedLogRecord) -> Int64? {
        if let keptHeader {
            batchRecords.append((record.offset, record.timestamp, record.key.map { Array($0) }))
            if record.headersByteCount > 0, record.headerValue(keptHeader) != nil {
                let commit = batchRecords.filter { $0.timestamp == record.timestamp }.map { ($0.offset, $0.key) }
                pinned = Dictionary(commit, uniquingKeysWith: { first, _ in first })
                pinnedKeys = Set(commit.compactMap(\.1))
            }
        }
        guard let key = record.key else { return nil }
        let entry = Latest(offset: record.offset, tombstoneTimestamp: record.isTombstone ? record.timestamp : nil)
        return latest.updateValue(entry, forKey: Array(key))?.offset
    }

    /// What becomes of `record` when tombstones stamped before `cutoff` are dropped.
    func verdict(on record: BorrowedLogRecord, tombstoneCutoff cutoff: Int64) -> Verdict {
        if !pinned.isEmpty, pinned[record.offset] != nil { return .keep }
        guard let key = record.key, let entry = latest[Array(key)] else { return .keep }
        guard entry.offset == record.offset else { return entry.offset > record.offset ? .superseded : .keep }
        return isDropped(entry, of: Array(key), cutoff: cutoff) ? .expiredTombstone : .keep
    }

    /// The latest events that are tombstones stamped before `cutoff`: those a compaction drops.
    func expiredTombstones(cutoff: Int64) -> [Int64] {
        latest.compactMap { key, entry in isDropped(entry, of: key, cutoff: cutoff) ? entry.offset : nil }
    }

    /// Whether `entry`, the latest event of `key`, is a tombstone a compaction with `cutoff`
    /// drops: one stamped before the cutoff, not pinned itself, and not after a pinned event of
    /// its key — the pinned save it follows would otherwise be the key's latest event again (a
    /// deleted record back for every fetch and replay).
    private func isDropped(_ entry: Latest, of key: [UInt8], cutoff: Int64) -> Bool {
        guard let stamp = entry.tombstoneTimestamp, stamp < cutoff, pinned[entry.offset] == nil else { return false }
        return !pinnedKeys.contains(key)
    }
}
