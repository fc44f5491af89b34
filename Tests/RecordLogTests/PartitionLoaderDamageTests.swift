import Foundation
import Testing
@testable import RecordLog

/// Damage the open meets in a zone's directory as a whole — a segment file gone, a segment a
/// compaction had emptied back in place, a log start no segment begins at, a durable-end mark
/// naming a segment that is gone: each open gives the store as it was or a typed error naming
/// the file and the missing offsets, and a refused open changes no file.
@Suite struct PartitionLoaderDamageTests {
    /// Every file under `directory` (paths relative to it) with its bytes.
    static func files(under directory: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] else { return files }
        for name in names {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try readBytes(directory + "/" + name)
            }
        }
        return files
    }

    /// The segment files (`.log`) of a partition directory, sorted.
    static func segments(_ directory: String) throws -> [String] {
        try listDirectory(directory).filter { $0.hasSuffix(".log") }
    }

    /// Removes a segment and its two index files, as a user's `rm` or a lost file would.
    static func removeSegment(_ name: String, in directory: String) throws {
        let base = String(name.dropLast(".log".count))
        for suffix in [".log", ".index", ".timeindex"] { try? FileManager.default.removeItem(atPath: directory + "/" + base + suffix) }
    }

    /// The open's error, with what it says of the missing offsets.
    static func corruption(_ store: String, options: LogOptions) -> (offset: Int64, reason: String)? {
        guard case .corruptBatch(_, _, let offset, let reason)? = RecoveryTests.openingError(store, options: options) else { return nil }
        return (offset, reason)
    }

    /// A closed store whose zone "Notes" holds 60 events in segments of 1 KiB; its options, the
    /// zone's directory and its segment files.
    static func segmentedStore(at store: String) async throws -> (options: LogOptions, directory: String, segments: [String]) {
        let options = fastOptions(segmentBytes: 1024)
        try await makeStore(at: store, options: options, events: Sample.events(0..<60, valueBytes: 60), batchSize: 3)
        let directory = try partitionDirectory(store)
        return (options, directory, try Self.segments(directory))
    }

    @Test("a segment missing between two that recovery reads stops the open with the gap, and no file changes")
    func missingMiddleSegment() async throws {
        try await withStorePath { store in
            let (options, directory, segments) = try await Self.segmentedStore(at: store)
            try #require(segments.count >= 3)
            // Without its recovery point the open recovers every segment from the first, batch
            // by batch, as after a crash before the point reached them.
            try FileManager.default.removeItem(atPath: store + "/" + RecoveryCheckpoint.fileName)
            try Self.removeSegment(segments[1], in: directory)
            let before = try Self.files(under: store)

            let refused = try #require(Self.corruption(store, options: options))
            #expect(refused.reason.contains("starts at"), "\(refused.reason)")
            #expect(refused.offset == SegmentName.baseOffset(of: segments[1], suffix: SegmentName.logSuffix))
            #expect(try Self.files(under: store) == before)
        }
    }

    /// Below the recovery point a sealed segment is opened from its index files — once its last
    /// batch is read and ends where the next segment begins. A segment file gone after it makes
    /// that check fail, the open scans it, and refuses the gap as above the recovery point.
    @Test("a segment missing between two sealed ones below the recovery point stops the open with the gap, and no file changes")
    func missingSealedMiddleSegment() async throws {
        try await withStorePath { store in
            let (options, directory, segments) = try await Self.segmentedStore(at: store)
            try #require(segments.count >= 4)
            try Self.removeSegment(segments[1], in: directory)
            let before = try Self.files(under: store)

            let refused = try #require(Self.corruption(store, options: options), "offsets of the missing segment read as never written")
            #expect(refused.reason.contains("starts at"), "\(refused.reason)")
            #expect(refused.offset == SegmentName.baseOffset(of: segments[1], suffix: SegmentName.logSuffix))
            #expect(try Self.files(under: store) == before)
        }
    }

    /// A zone compacted so that its first segments are emptied and removed
    /// (`CompactionTests.savedDeletedSaved`, the deletes dropped). Returns the options, the
    /// partition's directory, the segments the compaction removed (name and bytes), its start and
    /// its events as read after the compaction.
    static func compactedStore(at store: String) async throws
        -> (options: LogOptions, directory: String, removed: [(name: String, bytes: [UInt8])], start: Int64, events: [Event])
    {
        let options = fastOptions(segmentBytes: 4096)
        let log = try Log(directory: store, options: options)
        let partition = try log.createPartition(named: "Notes")
        try await partition.append(CompactionTests.savedDeletedSaved, batchSize: 4)
        let directory = try partitionDirectory(store)
        let segments = try Self.segments(directory)
        let bytes = try segments.map { try readBytes(directory + "/" + $0) }
        _ = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 500, now: 2600))
        let start = partition.startOffset
        let read = try partition.events(from: start)
        try log.close()
        let left = Set(try Self.segments(directory))
        let removed = zip(segments, bytes).filter { !left.contains($0.0) }.map { (name: $0.0, bytes: $0.1) }
        return (options, directory, removed, start, read)
    }

    @Test("a segment a compaction emptied, back in place, is ignored by a reader and removed by the writer's open")
    func emptiedSegmentBackInPlace() async throws {
        try await withStorePath { store in
            let compacted = try await Self.compactedStore(at: store)
            let emptied = try #require(compacted.removed.first)
            #expect(compacted.start > 0)
            // A compaction killed after its checkpoint moved the log start and before it removed
            // the segments below it leaves them in place.
            let path = compacted.directory + "/" + emptied.name
            try writeBytes(emptied.bytes, to: path)

            let reader = try Log(directory: store, options: fastOptions(segmentBytes: 4096, readOnly: true))
            #expect(try reader.partition(named: "Notes").startOffset == compacted.start)
            #expect(try reader.partition(named: "Notes").events(from: compacted.start) == compacted.events)
            try reader.close()
            #expect(FileManager.default.fileExists(atPath: path), "a reader changes nothing")

            let writer = try Log(directory: store, options: compacted.options)
            #expect(writer.recoveryReport.removedFiles.contains(path))
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try writer.partition(named: "Notes").events(from: compacted.start) == compacted.events)
            try writer.close()
        }
    }

    @Test("a log start no segment begins at stops the open with the missing offsets, and no file changes")
    func logStartWithoutItsSegment() async throws {
        try await withStorePath { store in
            let compacted = try await Self.compactedStore(at: store)
            let segments = try Self.segments(compacted.directory)
            try #require(segments.count >= 2)
            #expect(SegmentName.baseOffset(of: segments[0], suffix: SegmentName.logSuffix) == compacted.start)
            try Self.removeSegment(segments[0], in: compacted.directory)
            let before = try Self.files(under: store)

            for options in [compacted.options, fastOptions(segmentBytes: 4096, readOnly: true)] {
                let refused = try #require(Self.corruption(store, options: options))
                #expect(refused.offset == compacted.start)
                #expect(refused.reason.contains("are missing"), "\(refused.reason)")
                #expect(try Self.files(under: store) == before)
            }
        }
    }

    @Test("a zone whose only segment is gone and held nothing opens empty: a reader sees it, the writer makes the segment again")
    func emptyZoneWithoutSegment() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            _ = try log.createPartition(named: "Notes")
            try log.close()
            let directory = try partitionDirectory(store)
            let segments = try Self.segments(directory)
            try #require(segments.count == 1)
            try Self.removeSegment(segments[0], in: directory)

            let reader = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(try reader.partition(named: "Notes").endOffset == 0)
            try reader.close()
            #expect(try Self.segments(directory).isEmpty, "a reader changes nothing")

            let writer = try Log(directory: store, options: fastOptions())
            let notes = try writer.partition(named: "Notes")
            var batch = RecordBatchBuilder()
            batch.append(key: "after", value: [1])
            #expect(try await notes.append(batch) == 0..<1)
            try writer.close()
            #expect(try Self.segments(directory) == segments)
        }
    }

    @Test("a zone whose every segment is gone after acknowledged writes refuses to open, and no file is made")
    func acknowledgedZoneWithoutSegments() async throws {
        try await withStorePath { store in
            let options = fastOptions(segmentBytes: 1024)
            try await makeStore(at: store, options: options, events: Sample.events(0..<30, valueBytes: 60), batchSize: 3)
            let directory = try partitionDirectory(store)
            for segment in try Self.segments(directory) { try Self.removeSegment(segment, in: directory) }
            let before = try Self.files(under: store)

            for options in [options, fastOptions(segmentBytes: 1024, readOnly: true)] {
                let refused = try #require(Self.corruption(store, options: options))
                #expect(refused.reason.contains("missing"), "\(refused.reason)")
                #expect(try Self.files(under: store) == before)
            }
        }
    }

    @Test("a durable-end mark naming a segment that is gone is ignored by a reader, which then finds acknowledged offsets missing")
    func markNamingAMissingSegment() async throws {
        try await withStorePath { store in
            let (_, directory, segments) = try await Self.segmentedStore(at: store)
            let mark = try #require(DurableEnd.read(partitionDirectory: directory))
            let last = try #require(segments.last)
            #expect(SegmentName.baseOffset(of: last, suffix: SegmentName.logSuffix) == mark.segmentBase)
            try Self.removeSegment(last, in: directory)
            let before = try Self.files(under: store)

            let refused = try #require(Self.corruption(store, options: fastOptions(segmentBytes: 1024, readOnly: true)))
            #expect(refused.offset == mark.segmentBase)
            #expect(refused.reason.contains("missing"), "\(refused.reason)")
            #expect(try Self.files(under: store) == before)
        }
    }
}
