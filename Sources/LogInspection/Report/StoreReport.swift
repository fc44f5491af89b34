import Foundation
import RecordLog
import RecordStore

/// Everything `log-inspect report` shows: verify's verdict and, per zone, what the charts and
/// tables draw. Collected in one read of every segment; the page is ``ReportPage``.
///
/// ```swift
/// let report = try StoreReport(InspectTarget(path: "Fixtures/notes-store"))
/// try ReportPage(report).html().write(toFile: "/tmp/report.html", atomically: true, encoding: .utf8)
/// ```
///
/// Its size does not grow with the log but for ``ZoneReport/commits`` (one small value per
/// commit): keys are counted in a dictionary while reading, and only the top ones are kept.
public struct StoreReport: Sendable {
    /// How many keys and records the "most rewritten" and "largest" tables list.
    public static let topCount = 10

    /// The path as given.
    public var path: String
    /// Whether the path is a store (else one segment file).
    public var isStore: Bool
    /// What `verify` says about the same files.
    public var verdict: VerifyReport
    /// The zones, sorted by name.
    public var zones: [ZoneReport]

    /// Reads and verifies every segment of `target`.
    ///
    /// - Parameters:
    ///   - progress: called while reading, with the bytes read so far and the total, at most once a batch.
    ///   - verifyProgress: called while verifying (after reading), the same way.
    /// - Throws: ``InspectError/unreadable(_:)`` when a file cannot be read at all.
    public init(_ target: InspectTarget, progress: ReplayProgressHandler? = nil, verifyProgress: ReplayProgressHandler? = nil) throws {
        path = target.path
        isStore = target.isStore
        let total = target.totalSegmentBytes
        var collector = Collector(total: total, progress: progress)
        zones = try target.zones.map { try collector.zone($0) }
        progress?(total, total)
        verdict = try Verify.run(target, progress: verifyProgress)
    }

    /// The first and last commit time over every zone (ms since the epoch); nil when no zone has one.
    public var timeRange: ClosedRange<Int64>? {
        let firsts = zones.compactMap(\.summary.firstTimestamp), lasts = zones.compactMap(\.summary.lastTimestamp)
        guard let first = firsts.min(), let last = lasts.max() else { return nil }
        return min(first, last)...last
    }
}

/// Reads zones for a ``StoreReport``, reporting progress in bytes.
private struct Collector {
    let total: Int64
    let progress: ReplayProgressHandler?
    var done: Int64 = 0
    /// The decompressed records of the batch being read, reused from batch to batch.
    var buffer: [UInt8] = []

    init(total: Int64, progress: ReplayProgressHandler?) {
        self.total = total
        self.progress = progress
    }

    mutating func zone(_ zone: ZoneFiles) throws -> ZoneReport {
        var report = ZoneReport(summary: ZoneSummary(name: zone.name, startOffset: -1, endOffset: 0))
        var keys: [String: KeyTally] = [:]
        var largest = TopList<RecordExtent>(capacity: StoreReport.topCount)
        for segment in zone.segments {
            let scanned = try SegmentScan.scan(path: segment.path, expectedBaseOffset: segment.namedBaseOffset)
            let batches = scanned.compactMap(\.batch)
            let base = segment.namedBaseOffset ?? batches.first?.header.baseOffset ?? 0
            if report.summary.startOffset < 0 { report.summary.startOffset = base }
            let bytes = scanned.last.map { $0.position + Int64($0.size) } ?? 0
            report.summary.segments.append(SegmentSummary(
                file: segment.file, baseOffset: base, bytes: bytes, batches: batches.count,
                records: batches.reduce(0) { $0 + Int($1.header.recordCount) }, damaged: scanned.count - batches.count))
            report.summary.bytes += bytes
            for batch in batches {
                add(batch, to: &report, keys: &keys, largest: &largest)
                done += Int64(batch.header.totalSize)
                progress?(done, total)
            }
        }
        report.summary.startOffset = max(report.summary.startOffset, 0)
        report.summary.endOffset = max(report.summary.endOffset, report.summary.startOffset)
        var rewritten = TopList<KeyEvents>(capacity: StoreReport.topCount)
        // Sorted first, so that ties list keys in one order from run to run.
        for (key, tally) in keys.sorted(by: { $0.key < $1.key }) where tally.events > 1 && rewritten.admits(Int(tally.events)) {
            rewritten.offer(
                KeyEvents(key: key, events: Int(tally.events), deletes: Int(tally.deletes), lastOffset: tally.lastOffset),
                score: Int(tally.events))
        }
        report.mostRewritten = rewritten.elements
        report.largest = largest.elements
        return report
    }

    private mutating func add(
        _ batch: RecordBatch, to report: inout ZoneReport, keys: inout [String: KeyTally], largest: inout TopList<RecordExtent>
    ) {
        let header = batch.header
        report.summary.batches += 1
        report.summary.records += Int(header.recordCount)
        report.summary.endOffset = max(report.summary.endOffset, header.lastOffset + 1)
        report.summary.compressedBytes += Int64(batch.storedRecords.count)
        if report.summary.firstTimestamp == nil { report.summary.firstTimestamp = header.firstTimestamp }
        report.summary.lastTimestamp = max(report.summary.lastTimestamp ?? header.maxTimestamp, header.maxTimestamp)
        let bucket = Int(max(0, header.recordCount)).log2Bucket
        if report.batchSizes.count <= bucket { report.batchSizes += Array(repeating: 0, count: bucket + 1 - report.batchSizes.count) }
        report.batchSizes[bucket] += 1
        var point = CommitPoint(timestamp: header.maxTimestamp, saves: 0, deletes: 0, zoneEvents: 0, others: 0)
        var summary = report.summary
        var otherEvents = report.otherEvents, otherHeaders = report.otherHeaders
        // A batch whose records do not decode is verify's to report; the page counts what decodes.
        try? batch.forEachRecordInPlace(buffer: &buffer) { record in
            let kind = Self.kind(of: record)
            switch kind {
            case "save": point.saves += 1
            case "delete": point.deletes += 1
            case "createZone", "deleteZone": point.zoneEvents += 1
            default: point.others += 1
            }
            summary.recordsByEvent[kind, default: 0] += 1
            if !["save", "delete", "createZone", "deleteZone", "storeIdentity"].contains(kind) { otherEvents[kind, default: 0] += 1 }
            let recordType = record.headerValue(StoredEvent.recordTypeHeader).map { String(decoding: $0, as: UTF8.self) }
            if let recordType { summary.recordsByType[recordType, default: 0] += 1 }
            if record.headerCount > 0 {
                record.forEachHeader { key, _ in
                    let name = String(decoding: key, as: UTF8.self)
                    if !StoredEvent.isStoreHeader(name) { otherHeaders[name, default: 0] += 1 }
                    return true
                }
            }
            let size = RecordSize.encoded(record, baseOffset: header.baseOffset, baseTimestamp: header.firstTimestamp)
            summary.rawBytes += Int64(size)
            guard let keyBytes = record.key else { return }
            let key = Self.text(keyBytes)
            keys[key, default: KeyTally()].add(offset: record.offset, isDelete: kind == "delete")
            if largest.admits(size) {
                largest.offer(
                    RecordExtent(
                        offset: record.offset, key: key, event: kind, recordType: recordType, bytes: size,
                        valueBytes: record.value?.count ?? 0),
                    score: size)
            }
        }
        report.summary = summary
        report.otherEvents = otherEvents
        report.otherHeaders = otherHeaders
        report.commits.append(point)
    }

    /// The `event` header, else `save` or `delete` (a tombstone) as `dump` names a foreign record.
    private static func kind(of record: BorrowedLogRecord) -> String {
        if let name = record.headerValue(StoredEvent.eventHeader) { return String(decoding: name, as: UTF8.self) }
        return record.isTombstone ? "delete" : "save"
    }

    /// A key as text: itself when UTF-8, else `base64:` and its base64.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return "base64:" + Data(bytes).base64EncodedString()
    }
}

/// A key's events while reading.
private struct KeyTally {
    var events: Int32 = 0
    var deletes: Int32 = 0
    var lastOffset: Int64 = -1

    mutating func add(offset: Int64, isDelete: Bool) {
        events += 1
        if isDelete { deletes += 1 }
        lastOffset = offset
    }
}

extension Int {
    /// ⌊log2 self⌋ for a count ≥ 1 (0 for 0): the bucket of 2^i … 2^(i+1) − 1.
    fileprivate var log2Bucket: Int { Self.bitWidth - leadingZeroBitCount - (self > 0 ? 1 : 0) }
}
