import RecordLog

extension ZoneState {
    /// Applies one event that the store's writer (another process) appended, as a read-only
    /// database's `refresh()` meets it, and returns what it changed: for the subscriptions and
    /// for the views. Nil for an event that changes no record.
    mutating func follow(_ event: BorrowedLogRecord) throws -> (change: RecordChange, view: ViewEvent)? {
        guard let name = event.keyString else { return nil }
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return nil }
            let record = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true)
            let previousType = records.save(
                name: name, recordType: record.recordType, offset: event.offset,
                creationMillis: RecordEntry.millis(record.creationDate), targets: record.cascadeTargets())
            indexes.didSave(name: name, recordType: record.recordType, previousType: previousType, record: record)
            return (.saved(record, created: previousType == nil), .saved(record))
        case .delete?:
            guard let recordType = records.delete(name: name) else { return nil }
            deleted.recordDelete(of: name, at: event.offset)
            indexes.didDelete(name: name, recordType: recordType)
            let id = RecordID(recordName: name, zoneID: zoneID)
            return (.deleted(id, recordType: recordType), .deleted(id, recordType: recordType))
        default:
            return nil
        }
    }
}
