import Foundation
import StorageKit
import Testing
@testable import RecordLog

/// Reads that start inside a segment, at a position the offset index gives: the index is derived
/// data that a reopen trusts when it parses, and the base offset of the batch it points at is
/// covered by no CRC. A wrong entry must cost a longer scan, never a refusal of a sound segment or
/// a silent skip; a flipped base offset there must be refused, as it is at the segment's start.
@Suite struct IndexedReadTests {
    /// A sealed segment of 6 batches of 4 events (offsets 0..<24), an index entry for each batch
    /// after the first, reopened from its files after `damage` changed them.
    static func reopened(
        in directory: String, damage: (_ segment: String, _ index: String, _ entries: [OffsetIndex.Entry]) throws -> Void
    ) throws -> LogSegment {
        var (segment, _) = try LogSegmentTests.segment(in: directory, batches: 6)
        try segment.flush()
        try segment.seal(writingIndexFiles: true)
        try #require(segment.indexer.offsetIndex.entries.map(\.relativeOffset) == [7, 11, 15, 19, 23])
        try damage(segment.path, segment.siblingPath(SegmentName.indexSuffix), segment.indexer.offsetIndex.entries)
        return try #require(
            try LogSegment.openSealed(
                file: try OpenFile(path: segment.path, writable: false), directory: directory, baseOffset: 0,
                nextOffset: segment.nextOffset, indexIntervalBytes: 1),
            "the index still parses: a reopen trusts it")
    }

    static func write(_ entries: [OffsetIndex.Entry], to index: String) throws {
        var bytes: [UInt8] = []
        for entry in entries {
            bytes.appendInteger(entry.relativeOffset)
            bytes.appendInteger(entry.position)
        }
        try writeBytes(bytes, to: index)
    }

    @Test("a flipped base offset in the batch an index entry points at is refused, not read at shifted offsets")
    func flippedBaseOffsetAtAnIndexedBatch() async throws {
        for bit in 0..<8 {
            try await withTemporaryDirectory { directory in
                // Batch 3 holds 12..<16; its entry (last offset 15) is where a read of 15 starts.
                let segment = try Self.reopened(in: directory) { log, _, entries in
                    try writeBytes(flipping(try readBytes(log), byte: Int(entries[2].position) + 7, bit: bit), to: log)
                }
                // Read alone, as a paged fetch reads the first batch on a cache miss: no batch
                // after it shows the gap.
                #expect(throws: LogError.self, "bit \(bit)") { try LogSegmentTests.read(segment, from: 15, maxBytes: 1) }
                #expect(throws: LogError.self, "bit \(bit)") { try LogSegmentTests.read(segment, from: 15) }
                // The batches before it are still read as written.
                let before = try LogSegmentTests.read(segment, from: 0, maxBytes: 1)
                #expect(try LogSegmentTests.events(before) == Sample.events(0..<4))
            }
        }
    }

    @Test("an index entry that names the wrong offset costs a scan from the segment's start, not a skip")
    func entryWithAWrongOffset() async throws {
        try await withTemporaryDirectory { directory in
            // The third entry says the batch at batch 4's position ends at 12, and batch 4's own
            // entry is gone (positions strictly increase): a read of 13 would start at batch 4
            // (16..<20) and miss 13..<16.
            let segment = try Self.reopened(in: directory) { _, index, entries in
                var wrong = entries
                wrong[2] = OffsetIndex.Entry(relativeOffset: 12, position: entries[3].position)
                wrong.remove(at: 3)
                try Self.write(wrong, to: index)
            }
            #expect(try LogSegmentTests.events(LogSegmentTests.read(segment, from: 13)) == Sample.events(12..<24))
            #expect(try LogSegmentTests.events(LogSegmentTests.read(segment, from: 22)) == Sample.events(20..<24))
        }
    }

    @Test("an index entry that points inside a batch costs a scan from the segment's start, not a refusal")
    func entryWithAWrongPosition() async throws {
        try await withTemporaryDirectory { directory in
            let segment = try Self.reopened(in: directory) { _, index, entries in
                var wrong = entries
                wrong[2].position += 10
                try Self.write(wrong, to: index)
            }
            #expect(try LogSegmentTests.events(LogSegmentTests.read(segment, from: 15)) == Sample.events(12..<24))
            #expect(try LogSegmentTests.events(LogSegmentTests.read(segment, from: 9)) == Sample.events(8..<24))
        }
    }
}
