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
