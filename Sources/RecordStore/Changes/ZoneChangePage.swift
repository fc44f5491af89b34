import RecordLog

/// One page of a zone's changes: the latest event of each record name, found in one pass over
/// the log read in place. Only the latest save of each record is decoded, once the page is
/// known: its value bytes are copied out meanwhile, which costs less than decoding a save that a
/// later one replaces. They are copied into ``PageValues``, not an array each (a `malloc`, a
/// `free` and fresh pages per change).
struct ZoneChangePage {
    var changed: [Record] = []
    var deletions: [ZoneChanges.Deletion] = []
    /// Where the page ends: the end of the range when it holds every change.
    var next: Int64

    private enum Change {
        /// The save's value, kept in the page's `values`.
        case save(PageValues.Slot)
        case delete(recordType: String)
        /// Not a save or a delete, or a save without a value: reported as nothing.
        case none
    }

    private struct Entry {
        var offset: Int64
        var name: String
        var change: Change
    }

    /// The changes of `zone` in `from..<end`, at most `limit` record names, with only the fields
    /// in `desiredKeys` (all when nil).
    ///
    /// - Throws: what reading the log throws; the decoding error of the first latest save (by
    ///   offset) that does not decode.
    static func read(
        _ zone: ZoneState, from: Int64, to end: Int64, limit: Int, desiredKeys: Set<String>?
    ) throws -> ZoneChangePage {
        var page = ZoneChangePage(next: end)
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
        try zone.partition.forEachRecordInPlace(from: from, to: end) { event in
            guard let key = event.key else { return true }
            let bytes = key.assumingMemoryBound(to: UInt8.self)
            let hash = SlotTable.hash(key)
            if let index = indexByName.find(hash: hash, where: { entries[Int($0)].name.withUTF8Bytes { $0.hasSameBytes(as: bytes) } }) {
                entries[Int(index)].offset = event.offset
                entries[Int(index)].change = change(of: event, into: &values)
                return true
            }
            guard let name = event.keyString else { return true }
            guard indexByName.count < limit else {
                page.next = event.offset
                return false
            }
            // New: no entry matches, so the table files it in the first empty bucket.
            _ = indexByName.findOrInsert(hash: hash, fresh: Int32(entries.count), where: { _ in false })
            entries.append(Entry(offset: event.offset, name: name, change: change(of: event, into: &values)))
            return true
        }
        // Reserved: growing by doubling would copy the records and touch fresh pages each time.
        page.changed.reserveCapacity(entries.reduce(0) { if case .save = $1.change { $0 + 1 } else { $0 } })
        // Entries are in first-seen order: already by offset unless a record changed twice.
        for index in entries.indices.sorted(by: { entries[$0].offset < entries[$1].offset }) {
            let entry = entries[index]
            let id = RecordID(recordName: entry.name, zoneID: zone.zoneID)
            switch entry.change {
            case .save(let slot):
                let record = try values.withBytes(slot) { try RecordCodec.decode($0, recordID: id) }
                // Not `desiredKeys.map(record.keeping)`: forming that closure copies the record
                // into a context allocated per change, even when there are no desired keys.
                if let desiredKeys { page.changed.append(record.keeping(desiredKeys)) } else { page.changed.append(record) }
            case .delete(let recordType):
                page.deletions.append(.init(recordID: id, recordType: recordType))
            case .none:
                continue
            }
        }
        return page
    }

    private static func change(of event: BorrowedLogRecord, into values: inout PageValues) -> Change {
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return .none }
            return .save(values.append(value))
        case .delete?: return .delete(recordType: event.headerString(StoredEvent.recordTypeHeader) ?? "")
        default: return .none
        }
    }
}
