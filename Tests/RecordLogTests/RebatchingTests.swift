import Foundation
import Testing
import TestSupport
@testable import RecordLog

/// Compaction re-batches small commits (FORMAT.md §13, rule 3): a log of one-record batches, as a
/// server writes them, becomes one of large LZ4 batches, every record where and as it was.
@Suite struct RebatchingTests {
    /// `count` inserts of ~300 bytes of words, one new key each, three to a millisecond.
    static func notes(_ count: Int) -> [Event] {
        let words = ["milk", "bread", "call", "mum", "about", "the", "garden", "meeting", "notes", "tomorrow", "buy", "book"]
        return (0..<count).map { index in
            var random = SeededGenerator(seed: UInt64(index) &+ 7)
            let text = (0..<50).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " ")
            return Event(
                key: Array("note-\(index)".utf8), value: Array(text.utf8), headers: [LogHeader(key: "event", string: "save")],
                timestamp: Sample.baseTime + Int64(index / 3))
        }
    }

    static func batchCount(_ partition: Partition) throws -> Int {
        var count = 0
        var offset = partition.startOffset
        while offset < partition.endOffset {
            let batches = try partition.batches(from: offset, maxBytes: 1 << 20)
            guard let last = batches.last else { break }
            count += batches.count
            offset = last.header.lastOffset + 1
        }
        return count
    }

    @Test("a compaction merges one-record commits into large batches that compress, each record at its offset with its timestamp and headers; the merged segment is not rewritten again")
    func mergesSmallCommits() async throws {
        try await withStorePath { store in
            let events = Self.notes(900)
            let log = try Log(directory: store, options: fastOptions())
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(events, batchSize: 1)
            let small = partition.smallBatches
            #expect(small.bytes == small.totalBytes && small.bytes > 0, "every batch is a small commit")
            #expect(small.isDue(minimumBytes: 1024) && !small.isDue(minimumBytes: small.bytes + 1))

            let report = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            #expect(report.recordsRemoved == 0)
            let read = try partition.records(from: 0).map { ($0.offset, $0.event) }
            #expect(read.count == events.count)
            #expect(zip(read, events.enumerated()).allSatisfy { $0.0 == Int64($1.offset) && $0.1 == $1.element })
            let batches = try Self.batchCount(partition)
            #expect(batches < 20, "\(batches) batches for 900 records")
            #expect(report.bytesAfter * 3 < report.bytesBefore * 2, "LZ4 over merged notes: \(report.bytesBefore) → \(report.bytesAfter) bytes")
            #expect(partition.smallBatches.bytes == 0)

            // Nothing small is left: a second compaction leaves the segment's file as it is.
            let path = try #require(partition.segments.first).path
            let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
            let again = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            #expect(again.bytesAfter == report.bytesAfter)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)
            try log.close()

            // A reopen reads the merged batches as they are.
            let reopened = try Log(directory: store, options: fastOptions())
            let notes = try reopened.partition(named: "Notes")
            #expect(try notes.records(from: 0).map(\.event) == events)
            try reopened.close()
        }
    }

    @Test("large commits are not rewritten: a compaction of an insert-only log of full batches changes no file")
    func leavesLargeCommits() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(Self.notes(900), batchSize: 100)
            #expect(partition.smallBatches.bytes == 0)
            let before = try Self.batchCount(partition)
            let report = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            #expect(report.bytesAfter == report.bytesBefore)
            #expect(try Self.batchCount(partition) == before)
            try log.close()
        }
    }
}
