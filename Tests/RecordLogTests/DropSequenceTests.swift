import Foundation
import Testing
import TestSupport
@testable import RecordLog

/// The cleaner checkpoint's drop sequence (FORMAT.md §11.1, §13.2): a sequence lock over the
/// deletes compaction drops, which change tokens are stamped with. It moves by two for each
/// compaction that drops deletes and never for one that drops none; a compaction stopped between
/// its two moves leaves it odd, and the writer's next open makes it even once the swaps are
/// settled; a checkpoint of the first version reads as 0.
@Suite struct DropSequenceTests {
    private static let options = fastOptions(segmentBytes: 4096)

    /// A store whose partition "Notes" holds 600 rewrites of ten keys, then deletes of two of
    /// them at offsets 600 and 601: their keys' latest events, which a retention of 0 drops.
    private func withCompactableStore(_ body: (String) async throws -> Void) async throws {
        try await withStorePath { store in
            let deletes = ["k1", "k2"].enumerated().map { index, key in
                Event(key: Array(key.utf8), value: nil, timestamp: Sample.baseTime + 600 + Int64(index))
            }
            try await makeStore(at: store, options: Self.options, events: CompactionTests.rewrites(600, keys: 10) + deletes, batchSize: 5)
            try await body(store)
        }
    }

    /// Writes `text` as the partition's cleaner checkpoint; returns its path.
    @discardableResult
    private func writeCheckpoint(_ text: String, store: String) throws -> String {
        let log = try Log(directory: store, options: fastOptions(readOnly: true))
        defer { try? log.close() }
        let path = CleanerCheckpoint.path(directory: try log.partition(named: "Notes").directory)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func checkpointText(_ store: String) throws -> String {
        let log = try Log(directory: store, options: fastOptions(readOnly: true))
        defer { try? log.close() }
        return try String(contentsOfFile: CleanerCheckpoint.path(directory: log.partition(named: "Notes").directory), encoding: .utf8)
    }

    @Test("a compaction that drops deletes moves the drop sequence by two; one that drops none leaves it")
    func movesOnlyWithDrops() async throws {
        try await withCompactableStore { store in
            let log = try Log(directory: store, options: Self.options)
            let partition = try log.partition(named: "Notes")
            #expect(partition.dropSequence == 0)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            #expect(partition.dropSequence == 0, "no delete dropped")
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            #expect(partition.dropSequence == 2)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            #expect(partition.dropSequence == 2, "nothing left to drop")
            try await partition.append([Event(key: Array("late".utf8), value: nil, timestamp: Sample.baseTime)], batchSize: 1)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            #expect(partition.dropSequence == 4)
            try log.close()
            #expect(try checkpointText(store).hasSuffix("expiryOffset 603\ndropSequence 4\n"))
            #expect(try Log(directory: store, options: fastOptions(readOnly: true)).partition(named: "Notes").dropSequence == 4)
        }
    }

    @Test("a checkpoint of the first version (four lines) reads with drop sequence 0; the next compaction writes the second")
    func firstVersionReads() async throws {
        try await withCompactableStore { store in
            try writeCheckpoint("RecordLog cleaner 1\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 0\n", store: store)
            let log = try Log(directory: store, options: Self.options)
            let partition = try log.partition(named: "Notes")
            #expect(partition.dropSequence == 0)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            try log.close()
            let text = try checkpointText(store)
            #expect(text.hasPrefix("RecordLog cleaner 2\n") && text.hasSuffix("expiryOffset 602\ndropSequence 2\n"), "\(text)")
        }
    }

    @Test("an odd drop sequence (a compaction stopped) is made even by the writer's open, not by a reader's")
    func oddSettledByWriter() async throws {
        try await withCompactableStore { store in
            try writeCheckpoint("RecordLog cleaner 2\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 12\ndropSequence 5\n", store: store)
            let reader = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(try reader.partition(named: "Notes").dropSequence == 5)
            try reader.close()
            #expect(try checkpointText(store).hasSuffix("dropSequence 5\n"))

            let writer = try Log(directory: store, options: Self.options)
            #expect(try writer.partition(named: "Notes").dropSequence == 6)
            try writer.close()
            #expect(try checkpointText(store) == "RecordLog cleaner 2\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 12\ndropSequence 6\n")
        }
    }

    @Test("a checkpoint whose drop sequence is missing or not a number is a damaged file, and the open changes nothing", arguments: [
        "RecordLog cleaner 2\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 0\n",
        "RecordLog cleaner 2\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 0\ndropSequence -2\n",
        "RecordLog cleaner 2\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 0\ndropSequence two\n",
        "RecordLog cleaner 1\nlogStartOffset 0\ncleanedThrough 0\nexpiryOffset 0\ndropSequence 2\n",
    ])
    func damaged(text: String) async throws {
        try await withCompactableStore { store in
            let path = try writeCheckpoint(text, store: store)
            #expect {
                _ = try Log(directory: store, options: Self.options)
            } throws: { error in
                guard case LogError.damagedFile(let damaged, _) = error else { return false }
                return damaged == path
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
    }
}
