import Foundation
import RecordLog
import RecordStore

/// `summary`: per zone, offsets, segments, counts by type and event, bytes and times.
///
/// ```swift
/// let summary = try Summary(InspectTarget(path: "Fixtures/notes-store"))
/// print(summary.json().pretty())
/// ```
public struct Summary: Sendable {
    /// The zones, sorted by name.
    public var zones: [ZoneSummary]

    /// Reads every segment of `target` (damaged batches are counted in ``SegmentSummary/damaged``).
    public init(_ target: InspectTarget) throws {
        zones = try target.zones.map(Self.summarize)
    }

    /// `{"zones":[{"name","startOffset","endOffset","firstTimestamp","lastTimestamp","batches",
    /// "records","bytes","compressedBytes","rawBytes","recordsByType","recordsByEvent","segments"}]}`.
    public func json() -> JSONValue {
        .object([("zones", .array(zones.map { $0.json() }))])
    }

    /// The zones' lines for people.
    public func text() -> String {
        zones.isEmpty ? "no zones" : zones.map { $0.text() }.joined(separator: "\n")
    }

    private static func summarize(_ zone: ZoneFiles) throws -> ZoneSummary {
        var summary = ZoneSummary(name: zone.name, startOffset: -1, endOffset: 0)
        for segment in zone.segments {
            let scanned = try SegmentScan.scan(path: segment.path, expectedBaseOffset: segment.namedBaseOffset)
            let batches = scanned.compactMap(\.batch)
            let base = segment.namedBaseOffset ?? batches.first?.header.baseOffset ?? 0
            if summary.startOffset < 0 { summary.startOffset = base }
            let part = SegmentSummary(
                file: segment.file, baseOffset: base, bytes: scanned.last.map { $0.position + Int64($0.size) } ?? 0,
                batches: batches.count, records: batches.reduce(0) { $0 + Int($1.header.recordCount) },
                damaged: scanned.count - batches.count)
            for batch in batches { add(batch, to: &summary, zone: zone.name) }
            summary.bytes += part.bytes
            summary.segments.append(part)
        }
        summary.startOffset = max(summary.startOffset, 0)
        summary.endOffset = max(summary.endOffset, summary.startOffset)
        if let directory = zone.directory, FileManager.default.fileExists(atPath: CleanerCheckpoint.path(directory: directory)) {
            let cleaner = try CleanerCheckpoint.read(directory: directory)
            let sealed = summary.segments.dropLast()
            let sealedBytes = sealed.reduce(Int64(0)) { $0 + $1.bytes }
            let dirtyBytes = sealed.filter { $0.baseOffset >= cleaner.cleanedThrough }.reduce(Int64(0)) { $0 + $1.bytes }
            summary.compaction = ZoneSummary.CompactionSummary(
                logStartOffset: summary.startOffset, expiryOffset: cleaner.expiryOffset, dropSequence: cleaner.dropSequence,
                gaps: summary.endOffset - summary.startOffset - Int64(summary.records),
                dirtyRatio: sealedBytes == 0 ? 0 : Double(dirtyBytes) / Double(sealedBytes))
        }
        return summary
    }

    private static func add(_ batch: RecordBatch, to summary: inout ZoneSummary, zone: String) {
        let header = batch.header
        summary.batches += 1
        summary.records += Int(header.recordCount)
        summary.endOffset = max(summary.endOffset, header.lastOffset + 1)
        summary.compressedBytes += Int64(batch.storedRecords.count)
        if summary.firstTimestamp == nil { summary.firstTimestamp = header.firstTimestamp }
        summary.lastTimestamp = max(summary.lastTimestamp ?? header.maxTimestamp, header.maxTimestamp)
        guard let records = try? batch.records() else { return }
        for record in records {
            summary.rawBytes += Int64(RecordSize.encoded(record, baseOffset: header.baseOffset, baseTimestamp: header.firstTimestamp))
            let event = EventDescription.describe(record, zoneName: zone)
            summary.recordsByEvent[event.kind, default: 0] += 1
            if let type = event.recordType { summary.recordsByType[type, default: 0] += 1 }
        }
    }
}
