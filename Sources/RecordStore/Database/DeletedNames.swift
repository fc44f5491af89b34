/// Where each deleted record's latest delete lies in its zone's partition, by a 64-bit hash of
/// its name: what a save of a record that is not live needs to name its previous event (the
/// `previous` header, FORMAT.md §10.1), which the key index, holding live records only, cannot
/// tell.
///
/// Kept per zone beside the key index, by every commit and replay, and in the key index
/// checkpoint (§12.2). A record's entry is replaced by each delete of it and left alone while
/// it is live again (a live record's previous event is its latest save, which the key index
/// has). Two names of one hash share an entry: a reader that follows the offset finds another
/// key there and falls back to a scan, so a collision costs time, never an event.
///
/// Compaction drops a delete once its retention is past (FORMAT.md §13, rule 2), and with it
/// every earlier event of its record; the zone's expiry offset then lies past it. An entry whose
/// delete lies below the expiry offset is forgotten (``forget(_:below:)``) when a compaction
/// runs and when the zone is opened or replayed: what it named is gone, and a save re-creating
/// the record is the first event a walk of the record reaches, `previous` −1 — where the walk
/// would have ended at the removed offset all the same. (A delete below the expiry offset that
/// compaction kept — rule 6's commit, or a delete following a save in it — is forgotten too: a
/// walk from a re-creation does not reach past it, as it does not reach past rule 6's other
/// kept versions.) So the set stays the size of the deletes the log still holds, not of every
/// name ever deleted.
///
/// It is *complete* when it has seen every delete of its zone at or above the zone's expiry
/// offset (a zone created or replayed from its start, or checkpointed complete): a name it does
/// not hold was then never deleted, or its latest delete lies below the expiry offset; either
/// way a save of it is the first event of the record a reader can reach, `previous` −1. One
/// loaded from a checkpoint written before it existed is not, and then says nothing of names it
/// does not hold.
struct DeletedNames: Sendable {
    private var offsets: [UInt64: Int64] = [:]
    /// Whether every delete of the zone at or above the expiry offset was seen.
    private(set) var isComplete: Bool
    /// The expiry offset its entries were last forgotten below: none below it is left.
    private(set) var forgottenBelow: Int64 = 0

    init(complete: Bool) {
        isComplete = complete
    }

    /// The entries restored from a checkpoint, complete as it was when written.
    init(offsets: [UInt64: Int64], complete: Bool) {
        self.offsets = offsets
        isComplete = complete
    }

    /// How many names it holds.
    var count: Int { offsets.count }

    /// Every entry, by name hash.
    var entries: [UInt64: Int64] { offsets }

    /// Records a delete of `name` at `offset`.
    mutating func recordDelete(of name: String, at offset: Int64) {
        offsets[Self.hash(name)] = offset
    }

    /// The name hashes of the entries whose delete lies below `expiryOffset` (a zone's
    /// ``RecordLog/LogPartition/expiryOffset``): the deletes compaction dropped. Empty, without
    /// a look at the entries, when none was dropped since they were last forgotten. Read from a
    /// copy outside the database's lock; ``forget(_:below:)`` then removes them under it.
    func dropped(below expiryOffset: Int64) -> [UInt64] {
        guard expiryOffset > forgottenBelow else { return [] }
        return offsets.compactMap { $0.value < expiryOffset ? $0.key : nil }
    }

    /// Removes the entries of `hashes` (from ``dropped(below:)``) whose delete still lies below
    /// `expiryOffset` — one a later delete replaced meanwhile stays — and remembers that nothing
    /// below it is left.
    mutating func forget(_ hashes: [UInt64], below expiryOffset: Int64) {
        for hash in hashes where (offsets[hash] ?? .max) < expiryOffset { offsets[hash] = nil }
        forgottenBelow = max(forgottenBelow, expiryOffset)
    }

    /// Removes every entry whose delete lies below `expiryOffset`: ``dropped(below:)`` and
    /// ``forget(_:below:)`` in one, for a zone no other thread sees yet (an open).
    mutating func forgetDropped(below expiryOffset: Int64) {
        forget(dropped(below: expiryOffset), below: expiryOffset)
    }

    /// The `previous` value of a save of `name`, which is not live: its latest delete's offset,
    /// ``StoredEvent/noPreviousEvent`` when it was never deleted or its latest delete was
    /// forgotten (it lies below the expiry offset), nil when that is not known.
    func previousOfRecreated(_ name: String) -> Int64? {
        if offsets.isEmpty { return isComplete ? StoredEvent.noPreviousEvent : nil }
        if let offset = offsets[Self.hash(name)] { return offset }
        return isComplete ? StoredEvent.noPreviousEvent : nil
    }

    /// The hash names are kept under: FNV-1a 64 of the UTF-8 (FORMAT.md §12.2).
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
