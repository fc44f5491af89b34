import Foundation
import RecordLog
import RecordStore

/// `verify`: checks every segment as the writer's open would (length, magic, CRC-32C, record
/// counts, LZ4 frame headers, offset continuity within and across segments), then decodes every
/// record (and, in a store, every saved value) and compares `.index`/`.timeindex` files with the
/// ones rebuilt from the segment.
///
/// ```swift
/// let report = try Verify.run(InspectTarget(path: "Fixtures/notes-store-torn"))
/// report.status    // .tornTail
/// ```
public enum Verify {
    /// Verifies every zone of `target`.
    ///
    /// - Throws: ``InspectError/unreadable(_:)`` when a file cannot be read at all.
    public static func run(_ target: InspectTarget) throws -> VerifyReport {
        var report = VerifyReport()
        for zone in target.zones {
            try verify(zone, decodeValues: target.isStore, into: &report)
        }
        return report
    }

    private static func verify(_ zone: ZoneFiles, decodeValues: Bool, into report: inout VerifyReport) throws {
        var expected: Int64?
        for (index, segment) in zone.segments.enumerated() {
            let reader: SegmentReader
            do { reader = try SegmentReader(path: segment.path) } catch { throw InspectError.unreadable(segment.path) }
            var problems: [VerifyProblem] = []
            func problem(_ kind: VerifyProblem.Kind, _ position: Int64?, _ offset: Int64?, _ message: String, error: Bool = true) {
                problems.append(VerifyProblem(
                    kind: kind, isError: error, zone: zone.name, file: segment.file, position: position, offset: offset, message: message))
            }
            if let expected, let base = segment.namedBaseOffset, base != expected {
                problem(.offsetGap, 0, expected, "the segment starts at offset \(base) but the previous one ends before \(expected)")
            }
            let outcome = try reader.readBatches(expectedBaseOffset: segment.namedBaseOffset) { batch, position in
                do {
                    try batch.forEachRecord { record in
                        guard decodeValues, let failure = EventDescription.describe(record, zoneName: zone.name).decodingError else { return }
                        problem(.undecodable, position, record.offset, "the saved value does not decode: \(failure)")
                    }
                } catch {
                    problem(.undecodable, position, batch.header.baseOffset, "the batch's records do not decode: \(error)")
                }
            }
            report.segments.append(VerifyReport.Segment(
                zone: zone.name, file: segment.file, batches: outcome.batchCount, records: outcome.recordCount,
                validBytes: outcome.validEnd, bytes: reader.size))
            let isLast = index == zone.segments.count - 1
            if let (position, batchProblem) = outcome.problem {
                let laterData = zone.segments[(index + 1)...].contains { ((try? SegmentReader(path: $0.path))?.size ?? 0) > 0 }
                if outcome.validBatchFollows || laterData {
                    problem(.corruption, position, outcome.nextOffset, "\(batchProblem); valid data follows, so this is mid-log corruption")
                } else if outcome.trailingZeros {
                    problem(
                        .preallocated, position, outcome.nextOffset,
                        "\(reader.size - position) zero bytes preallocated by the writer (the store is open or was not closed)",
                        error: false)
                } else {
                    problem(.tornTail, position, outcome.nextOffset, "\(batchProblem); nothing valid follows: an append that never completed")
                }
            } else {
                let stem = (path: String(segment.path.dropLast(4)), file: String(segment.file.dropLast(4)))
                for found in try indexProblems(reader, isLast: isLast) {
                    let message = found.replacingOccurrences(of: stem.path, with: stem.file)
                    problem(.index, nil, nil, isLast ? message + " (the active segment's index is rewritten on close)" : message, error: !isLast)
                }
            }
            report.problems += problems
            expected = outcome.nextOffset
        }
    }

    /// Index differences; the last segment's index may describe it either sealed or not yet.
    private static func indexProblems(_ reader: SegmentReader, isLast: Bool) throws -> [String] {
        let sealed = try reader.indexProblems(sealed: true)
        guard isLast, !sealed.isEmpty else { return sealed }
        return try reader.indexProblems(sealed: false).isEmpty ? [] : sealed
    }
}
