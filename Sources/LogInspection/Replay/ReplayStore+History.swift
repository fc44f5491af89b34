import RecordLog
import RecordStore

extension ReplayStore {
    /// Every save and delete of the record `recordName` in `zone`, oldest first.
    ///
    /// ```swift
    /// for event in try store.history(zone: "Notes", recordName: "note-1") { print(event.offset, event.kind) }
    /// ```
    ///
    /// Walks the record's versions backwards from its latest event (``RecordWalk``): with the
    /// store's checkpoint and `previous` headers, its cost is the log after the checkpoint and
    /// one batch per version, however large the zone. A store without them (a log written before
    /// the headers, no checkpoint) is read whole, in place, decoding only the record's events.
    ///
    /// - Throws: `unknownZone`, `unknownRecord` when no event has that name.
    public func history(zone: String, recordName: String, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> [ZoneEvent] {
        let matches = try recordEvents(zone: zone, recordName: recordName, progress: progress).events
        var events: [ZoneEvent] = []
        for record in matches {
            if let event = try ZoneEvent(record, zone: zone) { events.append(event) }
        }
        guard !events.isEmpty else { throw ReplayError.unknownRecord(zone: zone, recordName: recordName) }
        return events
    }

    /// The log records whose key is `recordName` in `zone`, oldest first, and how they were found.
    package func recordEvents(
        zone: String, recordName: String, progress: ReplayProgressHandler? = nil
    ) throws(ReplayError) -> RecordEventsRead {
        if let walked = try walkedEvents(zone: zone, recordName: recordName) { return walked }
        let partition = try partition(zone)
        let name = Array(recordName.utf8)
        let tracker = ProgressTracker(total: partition.endOffset - partition.startOffset, handler: progress)
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
        return RecordEventsRead(events: matches, walked: false, scannedEvents: partition.endOffset - partition.startOffset, versionsRead: 0)
    }

    /// The record's events by a ``RecordWalk``; nil when the store has no checkpoint of the
    /// zone's current incarnation, or the walk cannot vouch for its answer (then read the zone).
    package func walkedEvents(zone: String, recordName: String) throws(ReplayError) -> RecordEventsRead? {
        let partition = try partition(zone)
        return try reading(zone) { try walk(partition: partition, name: Array(recordName.utf8)) }
    }

    private func walk(partition: Partition, name: [UInt8]) throws -> RecordEventsRead? {
        guard let system, let locator = RecordLocator(storeDirectory: log.directory),
            let incarnation = try ZoneLifetimes(system: system, cut: system.endOffset).liveNow[partition.name],
            let zone = locator.zone(partition.name, incarnation: incarnation),
            let walked = try RecordWalk(partition: partition, name: name, locator: zone).events()
        else { return nil }
        return RecordEventsRead(events: walked.events, walked: true, scannedEvents: walked.scanned, versionsRead: walked.read)
    }
}
