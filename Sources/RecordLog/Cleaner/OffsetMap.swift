import StorageKit

/// The latest event of each key in the part of a partition a compaction cleans (Kafka's
/// cleaner `OffsetMap`, with whole keys rather than digests, so that no two keys can collide),
/// and the verdict on every record that follows from it.
///
/// A record with a null key has no later version: it is always kept. Otherwise a record is
/// kept when it is its key's latest event, unless it is a tombstone older than the retention.
///
/// Each key has a *slot*: its bytes, back to back with the other keys' in one array, and its
/// latest event, by slot; a ``SlotTable`` finds a key's slot by its bytes. A key costs no
/// allocation of its own, noted or looked up (a table of arrays, one per key, made a million
/// allocations for a million keys, and one more per record judged).
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

    /// Each slot's latest event.
    private var latest: [Latest] = []
    /// The keys' bytes, slot after slot; slot `s`'s run from `keyStarts[s]` to `keyStarts[s + 1]`.
    private var keyBytes: [UInt8] = []
    /// Where each slot's key starts in `keyBytes`, then where the last one ends.
    private var keyStarts: [Int] = [0]
    /// Slots by their keys' bytes.
    private var slots = SlotTable()
    /// ``CompactionOptions/keptHeader``: its last carrier's commit is kept whatever the rules.
    let keptHeader: String?
    /// The events kept whatever the rules — the records of the kept header's last carrier's
    /// batch stamped with its timestamp (its commit) — by offset, with their keys' slots (−1:
    /// a null key).
    private var pinned: [Int64: Int32] = [:]
    /// The slots of the pinned events' keys.
    private var pinnedSlots: Set<Int32> = []
    /// With a kept header: the records of the batch being noted, so far, with their keys' slots.
    private var batchRecords: [(offset: Int64, timestamp: Int64, slot: Int32)] = []

    init(keptHeader: String? = nil) {
        self.keptHeader = keptHeader
    }

    /// How many keys the map holds.
    var count: Int { latest.count }

    /// Call before noting the records of each batch.
    mutating func startBatch() {
        batchRecords.removeAll(keepingCapacity: true)
    }

    /// Notes `record` as its key's latest event so far; returns the offset of the event it
    /// replaces, if the map held one. A carrier of the kept header pins its commit instead of
    /// the one pinned so far.
    mutating func note(_ record: BorrowedLogRecord) -> Int64? {
        var replaced: Int64?
        var slot: Int32 = -1
        if let key = record.key {
            let entry = Latest(offset: record.offset, tombstoneTimestamp: record.isTombstone ? record.timestamp : nil)
            slot = insert(key)
            if Int(slot) < latest.count {
                replaced = latest[Int(slot)].offset
                latest[Int(slot)] = entry
            } else {
                latest.append(entry)
            }
        }
        if let keptHeader {
            batchRecords.append((record.offset, record.timestamp, slot))
            if record.headersByteCount > 0, record.headerValue(keptHeader) != nil {
                let commit = batchRecords.filter { $0.timestamp == record.timestamp }
                pinned = Dictionary(commit.map { ($0.offset, $0.slot) }, uniquingKeysWith: { first, _ in first })
                pinnedSlots = Set(commit.map(\.slot).filter { $0 >= 0 })
            }
        }
        return replaced
    }

    /// What becomes of `record` when tombstones stamped before `cutoff` are dropped.
    func verdict(on record: BorrowedLogRecord, tombstoneCutoff cutoff: Int64) -> Verdict {
        if !pinned.isEmpty, pinned[record.offset] != nil { return .keep }
        guard let key = record.key, let slot = find(key) else { return .keep }
        let entry = latest[Int(slot)]
        guard entry.offset == record.offset else { return entry.offset > record.offset ? .superseded : .keep }
        return isDropped(entry, slot: slot, cutoff: cutoff) ? .expiredTombstone : .keep
    }

    /// The latest events that are tombstones stamped before `cutoff`: those a compaction drops.
    func expiredTombstones(cutoff: Int64) -> [Int64] {
        latest.indices.compactMap { slot in
            isDropped(latest[slot], slot: Int32(slot), cutoff: cutoff) ? latest[slot].offset : nil
        }
    }

    /// The offsets of the pinned events that a later event of their key replaced: kept, though
    /// ``note(_:)`` reported them replaced.
    func pinnedButReplaced() -> [Int64] {
        pinned.compactMap { offset, slot in slot >= 0 && latest[Int(slot)].offset != offset ? offset : nil }
    }

    /// Whether `entry`, the latest event of the key in `slot`, is a tombstone a compaction with
    /// `cutoff` drops: one stamped before the cutoff, not pinned itself, and not after a pinned
    /// event of its key — the pinned save it follows would otherwise be the key's latest event
    /// again (a deleted record back for every fetch and replay).
    private func isDropped(_ entry: Latest, slot: Int32, cutoff: Int64) -> Bool {
        guard let stamp = entry.tombstoneTimestamp, stamp < cutoff, pinned[entry.offset] == nil else { return false }
        return !pinnedSlots.contains(slot)
    }

    /// The slot of `key`, nil when the map does not hold it.
    private func find(_ key: UnsafeRawBufferPointer) -> Int32? {
        slots.find(hash: slots.hash(key)) { isKey($0, key) }
    }

    /// The slot of `key`, a new one (``count``, its latest event still to append) when the map
    /// did not hold it.
    private mutating func insert(_ key: UnsafeRawBufferPointer) -> Int32 {
        let fresh = Int32(latest.count)
        // `isKey` reads `keyBytes` while the table is being changed: the table is a value of its
        // own, so it is taken out for the insert (no copy: it stays uniquely referenced).
        var table = slots
        slots = SlotTable(seed: table.seed)
        let slot = table.findOrInsert(hash: table.hash(key), fresh: fresh) { isKey($0, key) }
        slots = table
        if slot == fresh {
            keyBytes.append(contentsOf: key)
            keyStarts.append(keyBytes.count)
        }
        return slot
    }

    /// Whether slot `slot` holds `key`.
    private func isKey(_ slot: Int32, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = keyStarts[Int(slot)], end = keyStarts[Int(slot) + 1]
        guard end - start == key.count else { return false }
        return keyBytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[start..<end]).hasSameBytes(as: key) }
    }
}
