import RecordLog

/// `dump`: the records of a store or segment, or their batch headers, filtered.
///
/// ```swift
/// let target = try InspectTarget(path: "Fixtures/notes-store")
/// try Dump.lines(target, filter: DumpFilter(zone: "Notes", to: 10), json: true) { print($0) }
/// ```
///
/// Damaged batches are skipped for records (`--batches` shows them, with `valid: false`); a value
/// that does not decode is shown as base64. Nothing in a file makes it crash.
public enum Dump {
    /// Calls `body` with each record passing `filter`: zones by name, then offsets; after
    /// `filter.limit` records, stops reading.
    public static func forEachRecord(
        _ target: InspectTarget, filter: DumpFilter, _ body: (InspectedRecord) throws -> Void
    ) throws {
        var left = filter.limit ?? Int.max
        guard left > 0 else { return }
        if let key = filter.key, target.isStore, let walked = try walkedRecords(target, key: key, zone: filter.zone) {
            for (zone, record) in walked {
                let inspected = InspectedRecord(zone: zone, record: record)
                guard filter.matches(inspected) else { continue }
                try body(inspected)
                left -= 1
                if left == 0 { return }
            }
            return
        }
        var buffer: [UInt8] = []
        let key = filter.key.map { Array($0.utf8) }
        try forEachBatchUntil(target, filter: filter) { line in
            guard let batch = line.batch.batch else { return true }
            // Records are looked at in place, and copied only when their offset and key pass:
            // `--key` on a large zone decodes the one record's events, not every value. A batch
            // with a record that does not decode is skipped whole, as verify reports it.
            var records: [LogRecord] = []
            do {
                try batch.forEachRecordInPlace(buffer: &buffer) { record in
                    guard filter.contains(offset: record.offset) else { return }
                    if let key, !Self.hasKey(record, key) { return }
                    records.append(LogRecord(record))
                }
            } catch {
                return true
            }
            for record in records {
                let inspected = InspectedRecord(zone: line.zone, record: record)
                guard filter.matches(inspected) else { continue }
                try body(inspected)
                left -= 1
                if left == 0 { return false }
            }
            return true
        }
    }

    /// Calls `body` with each batch (valid or damaged) of the zones and offsets `filter` selects;
    /// after `filter.limit` batches, stops reading.
    public static func forEachBatch(_ target: InspectTarget, filter: DumpFilter, _ body: (BatchLine) throws -> Void) throws {
        var left = filter.limit ?? Int.max
        guard left > 0 else { return }
        try forEachBatchUntil(target, filter: filter) { line in
            try body(line)
            left -= 1
            return left > 0
        }
    }

    /// Calls `body` with each batch of the zones and offsets `filter` selects, until it returns false.
    private static func forEachBatchUntil(_ target: InspectTarget, filter: DumpFilter, _ body: (BatchLine) throws -> Bool) throws {
        for zone in try target.zones(named: filter.zone) {
            for segment in zone.segments {
                for batch in try SegmentScan.scan(path: segment.path, expectedBaseOffset: segment.namedBaseOffset) {
                    if let header = batch.header, batch.batch != nil, !filter.overlaps(header) { continue }
                    guard try body(BatchLine(zone: zone.name, file: segment.file, batch: batch)) else { return }
                }
            }
        }
    }

    /// `--key` on a store: the key's records in each zone (`zone`, or all), found by walking
    /// the record's versions (``RecordWalk``) rather than reading the zones; nil when the store
    /// does not open, or any zone cannot be walked (then the zones are read as without a key).
    private static func walkedRecords(_ target: InspectTarget, key: String, zone: String?) throws -> [(zone: String, record: LogRecord)]? {
        let zones = try target.zones(named: zone)
        guard let store = try? ReplayStore(directory: target.path) else { return nil }
        defer { store.close() }
        var records: [(zone: String, record: LogRecord)] = []
        let name = Array(key.utf8)
        for zone in zones {
            if zone.name == ReplayStore.systemZone {
                // Its keys are not one thing's versions (no `previous`): it is read, small as it is.
                guard let system = store.system else { return nil }
                try system.forEachRecordInPlace(from: system.startOffset, to: system.endOffset) { record in
                    if hasKey(record, name) { records.append((zone.name, LogRecord(record))) }
                    return true
                }
                continue
            }
            guard let walked = try? store.walkedEvents(zone: zone.name, recordName: key) else { return nil }
            records += walked.events.map { (zone.name, $0) }
        }
        return records
    }

    /// Whether `record`'s key has exactly the bytes of `key`.
    static func hasKey(_ record: BorrowedLogRecord, _ key: [UInt8]) -> Bool {
        guard let bytes = record.key, bytes.count == key.count else { return false }
        return key.withUnsafeBytes { bytes.elementsEqual($0) }
    }

    /// The records passing `filter`, collected.
    public static func records(_ target: InspectTarget, filter: DumpFilter) throws -> [InspectedRecord] {
        var records: [InspectedRecord] = []
        try forEachRecord(target, filter: filter) { records.append($0) }
        return records
    }

    /// The output lines: one per record (or per batch with `batches`), JSON Lines with `json`.
    public static func lines(
        _ target: InspectTarget, filter: DumpFilter, batches: Bool = false, json: Bool = false, _ body: (String) throws -> Void
    ) throws {
        if batches {
            try forEachBatch(target, filter: filter) { try body(json ? $0.json().compact() : $0.text()) }
        } else {
            try forEachRecord(target, filter: filter) { try body(json ? $0.json().compact() : $0.text()) }
        }
    }
}
