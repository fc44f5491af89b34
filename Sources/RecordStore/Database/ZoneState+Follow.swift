import RecordLog

extension ZoneState {
    /// Applies one event that the store's writer (another process) appended, as a read-only
    /// database's `refresh()` meets it, and returns what it changed, for the subscriptions; the
    /// views' event goes into `views` (a save as the value the log holds, checked). Nil for an
    /// event that changes no record.
    ///
    /// The state moves as a replay's ``apply(_:)`` moves it (the client change token a commit
    /// carries included), so a writer of a shared log follows the other writers this way too.
    mutating func follow(_ event: BorrowedLogRecord, views: ReplayChunk?) throws -> RecordChange? {
        guard let name = event.keyString else { return nil }
        let change: RecordChange?
        switch StoredEvent.kind(of: event) {
        case .save?:
            guard let value = event.value else { return nil }
            let id = RecordID(recordName: name, zoneID: zoneID)
            let record = try RecordCodec.decode(value, recordID: id, zoneChecked: true)
            let previousType = applySave(record, offset: event.offset)
            views?.appendSave(id, value: value)
            change = .saved(record, created: previousType == nil)
        case .delete?:
            guard let recordType = applyDelete(name: name, offset: event.offset) else { return nil }
            let id = RecordID(recordName: name, zoneID: zoneID)
            views?.appendOther(.deleted(id, recordType: recordType))
            change = .deleted(id, recordType: recordType)
        default:
            mayHoldReplacedEvents = true
            return nil
        }
        noteClientToken(of: event)
        return change
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
