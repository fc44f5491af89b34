import Foundation
import RecordLog
import RecordStore

/// `verify`: checks a store as the writer's open would — its marker and zone name files, every
/// segment (length, magic, CRC-32C, record counts, LZ4 frame headers, offset continuity within
/// and across segments), damage judged against each zone's durable point by the open's own rule,
/// the system partition against the zone directories — then decodes every record (and, in a
/// record store, every saved value) and compares `.index`/`.timeindex` files with the ones rebuilt from
/// the segment. Beside a live writer it reads what the writer has made durable and reports the
/// writer's tail as such.
///
/// ```swift
/// let report = try Verify.run(InspectTarget(path: "Fixtures/notes-store-torn"))
/// report.status    // .tornTail
/// ```
public enum Verify {
    /// Verifies every zone of `target`.
    ///
    /// - Parameter progress: called with the segment bytes verified so far and their total, at
    ///   most once a batch (a second look beside a live writer starts again from 0).
    /// - Throws: ``InspectError/unreadable(_:)`` when a file cannot be read at all.
    public static func run(_ target: InspectTarget, progress: ReplayProgressHandler? = nil) throws -> VerifyReport {
        var report = try runOnce(target, progress: progress)
        // Beside a live writer, a segment may roll or grow between the listing and the reading:
        // a problem that a fresh look no longer finds was the writer at work, not damage.
        // The second look reads each zone's durable mark before it lists the segments, so the
        // listing holds every segment the mark covers (the first look's listing was made before
        // its marks were read, and a roll in between looked like missing batches).
        var attempts = 0
        while !report.isClean, attempts < 3, target.isStore, StoreCheck.writerIsLive(store: target.path) == true {
            attempts += 1
            let marks = durableMarks(of: target)
            guard let fresh = try? InspectTarget(path: target.path) else { break }
            report = try runOnce(fresh, marks: marks, progress: progress)
        }
        return report
    }

    /// Each zone's durable mark now, by zone name.
    private static func durableMarks(of target: InspectTarget) -> [String: Int64] {
        var marks: [String: Int64] = [:]
        for zone in target.zones {
            if let directory = zone.directory { marks[zone.name] = StoreCheck.durableOffset(store: target.path, partitionDirectory: directory) }
        }
        return marks
    }

    /// One look at every zone; `marks` are durable marks read before `target` listed its
    /// segments (a zone without one reads its mark now).
    private static func runOnce(_ target: InspectTarget, marks: [String: Int64] = [:], progress: ReplayProgressHandler?) throws -> VerifyReport {
        var report = VerifyReport()
        var bytes = ByteProgress(total: target.totalSegmentBytes, handler: progress)
        let writerLive = target.isStore && StoreCheck.writerIsLive(store: target.path) == true
        if target.isStore {
            checkMetadata(store: target.path, into: &report)
            checkZoneRegistry(target, into: &report)
        }
        // Only a record store (one with the system partition) saves encoded records; a bare log's
        // values (recordlog-demo's, an app's own) are opaque bytes, whatever their headers say.
        let decodeValues = target.isStore && target.zones.contains { $0.name == EventDescription.systemPartition }
        for zone in target.zones {
            // Read before the segments: whatever they then hold, the durable part is at least this.
            let durable = marks[zone.name] ?? zone.directory.map { StoreCheck.durableOffset(store: target.path, partitionDirectory: $0) } ?? 0
            try verify(zone, durable: durable, writerLive: writerLive, decodeValues: decodeValues, progress: &bytes, into: &report)
        }
        bytes.finish()
        return report
    }

    /// The marker and zone name files, as the writer's open checks them.
    private static func checkMetadata(store: String, into report: inout VerifyReport) {
        for problem in StoreCheck.metadataProblems(store: store) {
            let (path, message): (String, String) =
                switch problem {
                case .damagedFile(let path, let reason), .notAStore(let path, let reason): (path, reason)
                default: ("", problem.description)
                }
            let file = path.hasPrefix(store + "/") ? String(path.dropFirst(store.count + 1)) : path
            report.problems.append(VerifyProblem(
                kind: .metadata, isError: true, zone: "", file: file, position: nil, offset: nil,
                message: "\(message); the writer refuses to open the store until it is restored (repair)"))
        }
    }

    /// The system partition's zones against the zone directories, as the database's open reads them.
    private static func checkZoneRegistry(_ target: InspectTarget, into report: inout VerifyReport) {
        guard let log = try? Log(directory: target.path, options: LogOptions(readOnly: true)) else { return }
        defer { try? log.close() }
        guard let system = try? log.partition(named: EventDescription.systemPartition),
            let registry = try? ZoneRegistry(system: system)
        else { return }
        let directories = Dictionary(target.zones.map { ($0.name, $0.directory ?? "") }, uniquingKeysWith: { first, _ in first })
        let names = Array(directories.keys)
        for name in registry.unregistered(partitions: names) {
            report.problems.append(VerifyProblem(
                kind: .unregisteredZone, isError: true, zone: name, file: relative(directories[name] ?? "", store: target.path),
                position: nil, offset: nil,
                message: "the system partition does not register this zone (its creation event is lost); the store keeps its files but does not serve it"))
        }
        for name in registry.withoutDirectory(partitions: names) where name != RecordLimits.defaultZoneName {
            report.problems.append(VerifyProblem(
                kind: .missingZoneDirectory, isError: false, zone: name, file: "zones/" + ((try? ZoneDirectoryName.encode(name)) ?? name),
                position: nil, offset: nil,
                message: "the system partition registers this zone but it has no directory; the next writer's open creates it empty"))
        }
    }

    private static func relative(_ path: String, store: String) -> String {
        path.hasPrefix(store + "/") ? String(path.dropFirst(store.count + 1)) : path
    }

    private static func verify(
        _ zone: ZoneFiles, durable: Int64, writerLive: Bool, decodeValues: Bool, progress: inout ByteProgress, into report: inout VerifyReport
    ) throws {
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
                progress.reached(position, of: reader.size)
                do {
                    try batch.forEachRecord { record in
                        guard decodeValues, let failure = EventDescription.describe(record, zoneName: zone.name).decodingError else { return }
                        problem(.undecodable, position, record.offset, "the saved value does not decode: \(failure)")
                    }
                } catch {
                    problem(.undecodable, position, batch.header.baseOffset, "the batch's records do not decode: \(error)")
                }
            }
            progress.finishSegment(reader.size)
            report.segments.append(VerifyReport.Segment(
                zone: zone.name, file: segment.file, batches: outcome.batchCount, records: outcome.recordCount,
                validBytes: outcome.validEnd, bytes: reader.size))
            let isLast = index == zone.segments.count - 1
            if let (position, batchProblem) = outcome.problem {
                let laterData = zone.segments[(index + 1)...].contains { ((try? SegmentReader(path: $0.path))?.size ?? 0) > 0 }
                let verdict = InvalidBytes.classify(
                    expectedOffset: outcome.nextOffset, durableOffset: durable, laterData: laterData, writerLive: writerLive,
                    validFollows: { outcome.validBatchFollows }, allZeros: { outcome.trailingZeros })
                switch verdict {
                case .corruption(let why):
                    problem(.corruption, position, outcome.nextOffset, "\(batchProblem); \(why)")
                case .liveTail:
                    problem(
                        .liveTail, position, outcome.nextOffset,
                        "\(reader.size - position) bytes beyond what the live writer has made durable: its append in progress",
                        error: false)
                case .preallocated:
                    problem(
                        .preallocated, position, outcome.nextOffset,
                        "\(reader.size - position) zero bytes preallocated by the writer (the store is open or was not closed)",
                        error: false)
                case .tornTail:
                    problem(.tornTail, position, outcome.nextOffset, "\(batchProblem); nothing valid follows: an append that never completed")
                }
            } else {
                let stem = (path: String(segment.path.dropLast(4)), file: String(segment.file.dropLast(4)))
                for found in try indexProblems(reader, isLast: isLast) {
                    let message = found.replacingOccurrences(of: stem.path, with: stem.file)
                    problem(.index, nil, nil, isLast ? message + " (the active segment's index is rewritten on close)" : message, error: !isLast)
                }
            }
            if isLast, outcome.problem == nil, outcome.nextOffset < durable {
                problem(
                    .corruption, outcome.validEnd, outcome.nextOffset,
                    "the log ends at offset \(outcome.nextOffset), but offsets below \(durable) were made durable and acknowledged: "
                        + "\(durable - outcome.nextOffset) of them are missing")
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
