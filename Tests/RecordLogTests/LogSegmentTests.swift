import Foundation
import Logging
import StorageKit
import Testing
@testable import RecordLog

/// `LogSegment` on its own: a segment file in a temporary directory, no partition around it.
@Suite struct LogSegmentTests {
    static let maxBatchBytes = LogOptions.defaultMaxBatchBytes

    /// A fresh segment at `baseOffset` with `batches` batches of 4 events appended, without
    /// preallocation; returns it with each batch's offsets.
    static func segment(
        in directory: String, baseOffset: Int64 = 0, batches: Int, indexIntervalBytes: Int = 1,
        preallocationBytes: Int = 0
    ) throws -> (LogSegment, [Range<Int64>]) {
        var segment = try LogSegment.create(directory: directory, baseOffset: baseOffset, indexIntervalBytes: indexIntervalBytes)
        var ranges: [Range<Int64>] = []
        for index in 0..<batches {
            ranges.append(try segment.append(batch(index), preallocationBytes: preallocationBytes, segmentBytes: 1 << 20))
        }
        return (segment, ranges)
    }

    /// Batch `index` of the sample: events `4 * index ..< 4 * index + 4`.
    static func batch(_ index: Int) throws -> EncodedBatch {
        try RecordBatchBuilder(Sample.events((4 * index)..<(4 * index + 4))).encode()
    }

    static func events(_ batches: [RecordBatch]) throws -> [Event] {
        try batches.flatMap { try $0.records() }.map(\.event)
    }

    static func read(_ segment: LogSegment, from offset: Int64, maxBytes: Int = 1 << 20) throws -> [RecordBatch] {
        var fetch = LogSegment.Fetch(offset: offset, maxBytes: maxBytes)
        try segment.read(into: &fetch, maxBatchBytes: maxBatchBytes)
        return fetch.batches
    }

    @Test("appended batches get dense offsets from the base, and a read from a middle offset starts at the batch holding it")
    func appendThenReadFromTheMiddle() async throws {
        try await withTemporaryDirectory { directory in
            let (segment, ranges) = try Self.segment(in: directory, baseOffset: 100, batches: 6)
            let expected: [Range<Int64>] = stride(from: Int64(100), to: 124, by: 4).map { $0..<($0 + 4) }
            #expect(ranges == expected)
            #expect(segment.nextOffset == 124)
            #expect(segment.indexer.offsetIndex.entries.count == 5, "an entry for every batch after the first")
            let batches = try Self.read(segment, from: 110)
            #expect(batches.map(\.header.baseOffset) == [108, 112, 116, 120])
            #expect(try Self.events(batches) == Sample.events(8..<24))
            #expect(try Self.read(segment, from: 124).isEmpty, "nothing at the end")
            let one = try Self.read(segment, from: 100, maxBytes: 1)
            #expect(one.map(\.header.baseOffset) == [100], "a budget smaller than a batch still gives one")
        }
    }

    @Test("recovery keeps the whole batches, cuts a torn tail, and rebuilds the indexes appends would have built")
    func recoverCutsATornTail() async throws {
        try await withTemporaryDirectory { directory in
            let (written, _) = try Self.segment(in: directory, batches: 5)
            let path = written.path
            let whole = try readBytes(path)
            // Half of a sixth batch: an append the process did not finish.
            let torn = try Self.batch(5).bytes
            try writeBytes(whole + torn.prefix(torn.count / 2), to: path)
            var report = RecoveryReport()
            let recovered = try LogSegment.recover(
                file: try OpenFile(path: path, writable: true), directory: directory, baseOffset: 0, durableOffset: 20,
                isLast: true, laterData: { false }, options: LogOptions(indexIntervalBytes: 1), logger: Logger(label: "test"),
                report: &report)
            #expect(recovered.size == Int64(whole.count))
            #expect(recovered.nextOffset == 20)
            #expect(recovered.indexer == written.indexer)
            #expect(try readBytes(path) == whole, "the file is cut at the last whole batch")
            #expect(report.truncatedTails.map(\.bytesRemoved) == [Int64(torn.count / 2)])
            #expect(try Self.events(Self.read(recovered, from: 0)) == Sample.events(0..<20))
        }
    }

    @Test("recovery refuses to cut invalid bytes below the durable point")
    func recoverRefusesDurableDamage() async throws {
        try await withTemporaryDirectory { directory in
            let (written, _) = try Self.segment(in: directory, batches: 3)
            let bytes = try readBytes(written.path)
            try writeBytes(Array(bytes.dropLast(5)), to: written.path)
            var report = RecoveryReport()
            #expect(throws: LogError.self) {
                _ = try LogSegment.recover(
                    file: try OpenFile(path: written.path, writable: true), directory: directory, baseOffset: 0, durableOffset: 12,
                    isLast: true, laterData: { false }, options: LogOptions(), logger: Logger(label: "test"), report: &report)
            }
            #expect(try readBytes(written.path).count == bytes.count - 5, "nothing was cut")
        }
    }

    @Test("after truncate(to:) the next append continues at the cut offset, and the indexes match a fresh segment's")
    func truncateThenAppend() async throws {
        try await withTemporaryDirectory { directory in
            var (segment, _) = try Self.segment(in: directory, batches: 5)
            let removed = try segment.truncate(to: 13, maxBatchBytes: Self.maxBatchBytes)
            #expect(segment.nextOffset == 12, "the batch holding offset 13 goes whole")
            #expect(removed > 0)
            #expect(try readBytes(segment.path).count == Int(segment.size))
            let offsets = try segment.append(Self.batch(3), preallocationBytes: 0, segmentBytes: 1 << 20)
            #expect(offsets == 12..<16)
            let fresh = directory + "/fresh"
            try FileSystem.makeDirectory(fresh)
            #expect(segment.indexer == (try Self.segment(in: fresh, batches: 4)).0.indexer)
            #expect(try Self.events(Self.read(segment, from: 0)) == Sample.events(0..<16))
            #expect(try segment.truncate(to: 16, maxBatchBytes: Self.maxBatchBytes) == 0, "at the end: nothing to cut")
            try segment.truncate(to: 0, maxBatchBytes: Self.maxBatchBytes)
            #expect(segment.size == 0 && segment.nextOffset == 0 && segment.firstTimestamp == nil)
            #expect(segment.indexer.offsetIndex.entries.isEmpty)
        }
    }

    @Test("sealing cuts the preallocated zeros and writes the index files a reopen loads")
    func sealWritesIndexFilesThatAReopenUses() async throws {
        try await withTemporaryDirectory { directory in
            var (segment, _) = try Self.segment(in: directory, batches: 4, preallocationBytes: 64 << 10)
            #expect(try readBytes(segment.path).count == 64 << 10, "written ahead with zeros")
            try segment.flush()
            try segment.seal(writingIndexFiles: true)
            #expect(try readBytes(segment.path).count == Int(segment.size), "the zeros are cut")
            let index = try readBytes(segment.siblingPath(SegmentName.indexSuffix))
            #expect(index == segment.indexer.offsetIndex.serialized() && !index.isEmpty)
            let reopened = try #require(
                try LogSegment.openSealed(
                    file: try OpenFile(path: segment.path, writable: false), directory: directory, baseOffset: 0,
                    nextOffset: segment.nextOffset, indexIntervalBytes: 1))
            #expect(reopened.indexer.offsetIndex == segment.indexer.offsetIndex)
            #expect(reopened.indexer.timeIndex == segment.indexer.timeIndex)
            #expect(reopened.maxTimestamp == segment.maxTimestamp)
            #expect(reopened.firstTimestamp == segment.firstTimestamp)
            #expect(try Self.events(Self.read(reopened, from: 9)) == Sample.events(8..<16))
            // A damaged index file is not trusted: the caller recovers the segment instead.
            try writeBytes(Array(index.dropLast(1)), to: segment.siblingPath(SegmentName.indexSuffix))
            #expect(
                try LogSegment.openSealed(
                    file: try OpenFile(path: segment.path, writable: false), directory: directory, baseOffset: 0,
                    nextOffset: segment.nextOffset, indexIntervalBytes: 1) == nil)
        }
    }
}
