import RecordLog

/// One page of a zone's changes as records: the latest state of each record changed in a range
/// of the log (``ZoneChangeScan``), decoded.
struct ZoneChangePage {
    var changed: [Record] = []
    var deletions: [ZoneChanges.Deletion] = []
    /// Where the page ends: the end of the range when it holds every change.
    var next: Int64

    /// The changes of `zone` in `from..<end`, at most `limit` record names, with only the fields
    /// in `desiredKeys` (all when nil).
    ///
    /// - Throws: what reading the log throws; the decoding error of the first latest save (by
    ///   offset) that does not decode.
    static func read(
        _ zone: ZoneState, from: Int64, to end: Int64, limit: Int, byteBudget: Int = .max, desiredKeys: Set<String>?
    ) throws -> ZoneChangePage {
        let scan = try ZoneChangeScan(zone, from: from, to: end, limit: limit, byteBudget: byteBudget)
        var page = ZoneChangePage(next: scan.next)
        // Reserved: growing by doubling would copy the records and touch fresh pages each time.
        page.changed.reserveCapacity(scan.saveCount)
        for entry in scan.entries {
            let id = RecordID(recordName: entry.name, zoneID: zone.zoneID)
            switch entry.change {
            case .save(let slot, let checked):
                // A checked value is built without checking it again; the same record either way.
                let record = try scan.values.withBytes(slot) { bytes in
                    try checked
                        ? StoredRecord(trusting: bytes, recordID: id).materialized()
                        : RecordCodec.decode(bytes, recordID: id, zoneChecked: true)
                }
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
}
