import RecordLog
import StorageKit

/// The pass behind a page of a zone's changes: the latest event of each record name in a range
/// of the log, found in one pass over the log read in place, in the order of those events.
///
/// The latest save of each record is decoded only once the page is known: its value bytes are
/// kept meanwhile, which costs less than decoding a save that a later one replaces. They are
/// kept in ``PageValues``: in place when the log's cache holds their batch, else copied (not
/// into an array each: a `malloc`, a `free` and fresh pages per change). ``ZoneChangePage`` decodes them into records; ``Database/fetchZoneChanges(in:since:resultsLimit:recordChanged:recordDeleted:)``
/// hands them out read in place.
struct ZoneChangeScan {
    enum Change {
        /// The save's value, kept in `values`; `checked` when it is known to pass
        /// ``ChangeEventCheck`` (its batch passed it in the log's cache).
        case save(PageValues.Slot, checked: Bool)
        case delete(recordType: String)
        /// Not a save or a delete, or a save without a value: reported as nothing.
        case none
    }

    struct Entry {
        var offset: Int64
        var name: String
        var change: Change
    }

    /// Each changed record name's latest event, by offset.
    let entries: [Entry]
    /// The latest saves' value bytes.
    let values: PageValues
    /// Where the page ends: the end of the range when it holds every change.
    let next: Int64

    /// How many entries are saves.
    var saveCount: Int {
        entries.reduce(0) { if case .save = $1.change { $0 + 1 } else { $0 } }
    }

    /// Scans the events of `zone` in `from..<end` for at most `limit` record names, and no new
    /// name once the values kept reach `byteBudget` bytes (a page holds at least one change
    /// however large; the budget counts every value kept, replaced ones included, so a page may
    /// end early but never holds much more than the budget and one record).
    ///
    /// - Throws: what reading the log throws.
    init(_ zone: ZoneState, from: Int64, to end: Int64, limit: Int, byteBudget: Int = .max) throws {
        // At most one entry per event and per page; past 64k entries, let the tables grow (a
        // long range may hold few records, changed many times).
        let most = Int(min(Int64(limit), max(0, end - from), 1 << 16))
        var entries: [Entry] = []
        entries.reserveCapacity(most)
        // Name → index into `entries`, found by the key's bytes: no string is built, and no
        // SipHash run, for a name seen before.
        var indexByName = SlotTable()
        indexByName.reserveCapacity(most)
        var values = PageValues()
        var next = end
        var reordered = false
        var keptBytes = 0
        // Cached: apps fetch the same tail of the log again (devices, subscriptions, retries);
        // a batch read again is not checked again.
        try zone.partition.forEachRecordInPlace(from: from, to: end, cachedWith: ChangeEventCheck.self) { event, checked, keeper in
            guard let key = event.key else { return true }
            let bytes = key.assumingMemoryBound(to: UInt8.self)
            let hash = SlotTable.hash(key)
            if let index = indexByName.find(hash: hash, where: { entries[Int($0)].name.withUTF8Bytes { $0.hasSameBytes(as: bytes) } }) {
                keptBytes += event.value?.count ?? 0
                entries[Int(index)].offset = event.offset
                entries[Int(index)].change = Self.change(of: event, checked: checked, keeper: keeper, into: &values)
                reordered = true
                return true
            }
            guard let name = event.keyString else { return true }
            guard indexByName.count < limit, entries.isEmpty || keptBytes < byteBudget else {
                next = event.offset
                return false
            }
            keptBytes += event.value?.count ?? 0
            // New: no entry matches, so the table files it in the first empty bucket.
            _ = indexByName.findOrInsert(hash: hash, fresh: Int32(entries.count), where: { _ in false })
            entries.append(Entry(offset: event.offset, name: name, change: Self.change(of: event, checked: checked, keeper: keeper, into: &values)))
            return true
        }
        // Entries are in first-seen order: already by offset unless a record changed twice.
        if reordered { entries.sort { $0.offset < $1.offset } }
        self.entries = entries
        self.values = values
        self.next = next
    }

    private static func change(
        of event: BorrowedLogRecord, checked: Bool, keeper: AnyObject?, into values: inout PageValues
    ) -> Change {
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return .none }
            return .save(values.append(value, keptBy: keeper), checked: checked)
        case .delete?: return .delete(recordType: event.headerString(StoredEvent.recordTypeHeader) ?? "")
        default: return .none
        }
    }
}
