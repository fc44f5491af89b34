import RecordLog

extension ZoneState {
    /// Reads the record saved at `entry.offset` (the live version the key index names) from the
    /// zone's partition.
    func record(named name: String, at entry: RecordEntry) throws -> Record {
        var found: Record?
        try partition.forEachRecordInPlace(from: entry.offset, to: entry.offset + 1, cached: false) { event in
            if let value = event.value {
                found = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true)
            }
            return false
        }
        guard let found else {
            throw RecordStoreError(.internalError, "The log holds no saved record \(name) at offset \(entry.offset) of zone \(zoneID).")
        }
        return found
    }
}

extension ZoneState {
    /// The record saved at `offset` (the version a change tag names: a conflict's ancestor), or
    /// nil when the log no longer holds it: compaction removed it once a later event replaced
    /// it, or dropped the segment holding it (below the log start). Not an error: that version
    /// is gone (FORMAT.md §13).
    ///
    /// - Throws: what reading the log throws for damage; `RecordDecodingError` for a value that
    ///   does not decode.
    func savedRecord(named name: String, at offset: Int64) throws -> Record? {
        guard offset >= partition.startOffset, offset < partition.endOffset else { return nil }
        var found: Record?
        try partition.forEachRecordInPlace(from: offset, to: offset + 1, cached: false) { event in
            if event.offset == offset, let value = event.value, event.keyString == name {
                found = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true)
            }
            return false
        }
        return found
    }
}
