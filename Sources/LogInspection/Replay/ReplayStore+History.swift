import RecordLog

extension ReplayStore {
    /// Every save and delete of the record `recordName` in `zone`, oldest first.
    ///
    /// ```swift
    /// for event in try store.history(zone: "Notes", recordName: "note-1") { print(event.offset, event.kind) }
    /// ```
    ///
    /// Reads the zone's records in place and decodes only the record's own events, so its cost
    /// is reading (and decompressing) the zone's log once, not decoding every value in it.
    ///
    /// - Throws: `unknownZone`, `unknownRecord` when no event has that name.
    public func history(zone: String, recordName: String, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> [ZoneEvent] {
        let partition = try partition(zone)
        let tracker = ProgressTracker(total: partition.endOffset - partition.startOffset, handler: progress)
        let name = Array(recordName.utf8)
        let matches = try reading(zone) {
            var matches: [LogRecord] = []
            try partition.forEachRecordInPlace(from: partition.startOffset, to: partition.endOffset) { record in
                tracker.step()
                if Dump.hasKey(record, name) { matches.append(LogRecord(record)) }
                return true
            }
            return matches
        }
        tracker.finish()
        var events: [ZoneEvent] = []
        for record in matches {
            if let event = try ZoneEvent(record, zone: zone) { events.append(event) }
        }
        guard !events.isEmpty else { throw ReplayError.unknownRecord(zone: zone, recordName: recordName) }
        return events
    }
}
