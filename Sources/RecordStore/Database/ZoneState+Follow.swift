import RecordLog

extension ZoneState {
    /// Applies one event that the store's writer (another process) appended, as a read-only
    /// database's `refresh()` meets it, and returns what it changed, for the subscriptions; the
    /// views' event goes into `views` (a save as the value the log holds, checked). Nil for an
    /// event that changes no record.
    mutating func follow(_ event: BorrowedLogRecord, views: ReplayChunk?) throws -> RecordChange? {
        guard let name = event.keyString else { return nil }
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return nil }
            let id = RecordID(recordName: name, zoneID: zoneID)
            let record = try RecordCodec.decode(value, recordID: id, zoneChecked: true)
            let previousType = records.save(
                name: name, recordType: record.recordType, offset: event.offset,
                creationMillis: RecordEntry.millis(record.creationDate), targets: record.cascadeTargets())
            indexes.didSave(name: name, recordType: record.recordType, previousType: previousType, record: record)
            views?.appendSave(id, value: value)
            return .saved(record, created: previousType == nil)
        case .delete?:
            guard let recordType = records.delete(name: name) else { return nil }
            deleted.recordDelete(of: name, at: event.offset)
            indexes.didDelete(name: name, recordType: recordType)
            let id = RecordID(recordName: name, zoneID: zoneID)
            views?.appendOther(.deleted(id, recordType: recordType))
            return .deleted(id, recordType: recordType)
        default:
            return nil
        }
    }
}

extension ZoneState {
    /// The zone as its whole log up to `end` now has it, for a reader that a compaction left
    /// behind: the writer dropped deletes at or after ``replayedEnd`` (the partition's expiry
    /// offset is beyond it), which this reader had not read and can no longer read. Returns the
    /// rebuilt state and what changed for the subscriptions, and for the views into `views` (when
    /// any is registered): every event from ``replayedEnd`` on that the compacted log still holds,
    /// then a deletion for each record this state holds that the log no longer has.
    func rebuiltFromLog(to end: Int64, views: ReplayChunk?) throws -> (zone: ZoneState, changes: [RecordChange]) {
        var fresh = ZoneState(zoneID: zoneID, partition: partition, incarnation: incarnation)
        var changes: [RecordChange] = []
        try partition.forEachRecordInPlace(from: partition.startOffset, to: end, cached: false) { event in
            let unread = event.offset >= replayedEnd
            if let change = try fresh.follow(event, views: unread ? views : nil), unread { changes.append(change) }
            return true
        }
        fresh.replayedEnd = end
        for recordType in records.liveRecordsByType.keys.sorted() {
            for name in records.names(ofType: recordType) where fresh.records[name] == nil {
                let id = RecordID(recordName: name, zoneID: zoneID)
                changes.append(.deleted(id, recordType: recordType))
                views?.appendOther(.deleted(id, recordType: recordType))
            }
        }
        return (fresh, changes)
    }
}
