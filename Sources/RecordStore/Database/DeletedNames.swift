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
/// It is *complete* when it has seen every delete of its zone (a zone created or replayed from
/// its start, or checkpointed complete): a name it does not hold was then never deleted, and a
/// save of it is the record's first event. One loaded from a checkpoint written before it
/// existed is not, and then says nothing of names it does not hold.
struct DeletedNames: Sendable {
    private var offsets: [UInt64: Int64] = [:]
    /// Whether every delete of the zone was seen.
    private(set) var isComplete: Bool

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

    /// The `previous` value of a save of `name`, which is not live: its latest delete's offset,
    /// ``StoredEvent/noPreviousEvent`` when it was never deleted, nil when that is not known.
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
