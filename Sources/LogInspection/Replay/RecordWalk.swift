import RecordLog
import RecordStore

/// One record's events in a zone, found by walking its versions backwards — from its latest
/// event, which the store's key index checkpoint locates (``RecordLocator``), batch by batch
/// along each event's `previous` header (FORMAT.md §10.1) — instead of reading the whole zone.
///
/// The walk reads the zone's events after the checkpoint, then one batch per earlier version.
/// It ends at an event that is the record's first (`previous` −1), or at a `previous` that
/// compaction removed: compaction keeps a record's latest event only, so what lay before a
/// removed one was removed too (FORMAT.md §13; a version kept only because it shares the
/// zone's last client-token commit, rule 6, is not reached past it). Where the headers cannot
/// tell — a log written before them, a checkpoint from before deletes were kept — it reads the
/// zone below that point as a scan does; where they disagree with the log (an offset holding
/// another key: a name-hash collision, or files mixed from two stores) it gives up, and the
/// caller scans. Either way the events are those a full scan finds.
struct RecordWalk {
    let partition: Partition
    let name: [UInt8]
    let locator: RecordLocator.Zone

    /// The record's events, oldest first; nil when the walk cannot vouch for them (then scan).
    /// `scanned` counts the events read by scans (the tail after the checkpoint, and any part
    /// whose headers cannot tell), `read` the versions read one by one.
    func events() throws -> (events: [LogRecord], scanned: Int64, read: Int)? {
        let start = partition.startOffset, end = partition.endOffset
        guard locator.covered <= end else { return nil }
        // The events after the checkpoint, which it does not know.
        let tailStart = max(locator.covered, start)
        let newest = try scan(from: tailStart, to: end)
        var scanned = end - tailStart
        var next: PreviousEvent
        var lowest = tailStart
        if let first = newest.first {
            next = StoredEvent(first).previous
            lowest = first.offset
        } else {
            next = locator.latestEvent(of: String(decoding: name, as: UTF8.self))
        }
        var older: [LogRecord] = []
        var read = 0
        walk: while true {
            switch next {
            case .none:
                break walk
            case .unknown:
                // The headers cannot tell: every earlier event is searched for.
                older += try scan(from: start, to: lowest).reversed()
                scanned += lowest - start
                break walk
            case .at(let offset):
                // Each step goes back; anything else is not this log's chain.
                guard offset < lowest, offset < end else { return nil }
                // Below the log start, or a gap compaction left: the record's earlier events are gone.
                guard offset >= start, let record = try record(at: offset) else { break walk }
                guard let key = record.key, key.elementsEqual(name) else { return nil }
                read += 1
                older.append(record)
                lowest = offset
                next = StoredEvent(record).previous
            }
        }
        return (older.reversed() + newest, scanned, read)
    }

    /// The record's events in `from..<to`, oldest first.
    private func scan(from: Int64, to: Int64) throws -> [LogRecord] {
        guard from < to else { return [] }
        var found: [LogRecord] = []
        try partition.forEachRecordInPlace(from: from, to: to) { record in
            if Dump.hasKey(record, name) { found.append(LogRecord(record)) }
            return true
        }
        return found
    }

    /// The record at exactly `offset`, reading its batch alone; nil when compaction removed it.
    private func record(at offset: Int64) throws -> LogRecord? {
        guard let batch = try partition.batches(from: offset, maxBytes: 1).first else { return nil }
        var found: LogRecord?
        var buffer: [UInt8] = []
        try batch.forEachRecordInPlace(maxDecompressedBytes: LogOptions.defaultMaxDecompressedBytes, buffer: &buffer) { record in
            if record.offset == offset { found = LogRecord(record) }
        }
        return found
    }
}
