extension ReplayStore {
    /// Every save and delete of the record `recordName` in `zone`, oldest first.
    ///
    /// ```swift
    /// for event in try store.history(zone: "Notes", recordName: "note-1") { print(event.offset, event.kind) }
    /// ```
    ///
    /// - Throws: `unknownZone`, `unknownRecord` when no event has that name.
    public func history(zone: String, recordName: String, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> [ZoneEvent] {
        let partition = try partition(zone)
        let tracker = ProgressTracker(total: partition.endOffset - partition.startOffset, handler: progress)
        var events: [ZoneEvent] = []
        try forEachEvent(zone: zone, from: partition.startOffset, to: partition.endOffset, progress: tracker) { event in
            if event.recordName == recordName { events.append(event) }
        }
        tracker.finish()
        guard !events.isEmpty else { throw ReplayError.unknownRecord(zone: zone, recordName: recordName) }
        return events
    }
}
