import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TuningSupport
import StorageKit

/// The compact key index across checkpoints: slots reused by deletes, record types that change,
/// records with several `.deleteSelf` targets, and checkpoints that must not be trusted.
@Suite(.everyTuning) struct KeyIndexCheckpointTests {
    private func snapshotPath(_ path: String) -> String { path + "/snapshots/key-index.mapped" }

    /// A history that reuses deleted slots, changes a record's type and gives records several targets.
    private func history(_ database: Database) async throws {
        try await database.saveAll((0..<30).map { queryRecord("i\($0)", ["n": .int64(Int64($0))]) })
        _ = try await database.modifyRecords(saving: [], deleting: (0..<30).filter { $0 % 3 == 0 }.map { RecordID(recordName: "i\($0)") })
        try await database.saveAll((0..<10).map { queryRecord("j\($0)", type: "Other", ["n": .int64(Int64($0))]) })
        try await database.saveAll([queryRecord("i1", type: "Other", ["n": .int64(100)])])  // the type changes
        try await database.saveAll(["t1", "t2", "t3"].map { queryRecord($0, type: "Target") })
        try await database.saveAll([
            queryRecord("multi", ["a": ref("t1"), "b": .list([ref("t2"), ref("t3"), ref("t2")])]),
            queryRecord("single", ["a": ref("t1")]),
            queryRecord("other", ["a": ref("t3")]),
        ])
    }

    /// Every query answer and cascade a user sees, as names in order.
    private func answers(_ database: Database) async throws -> [[String]] {
        var answers: [[String]] = []
        for type in ["Item", "Other", "Target"] {
            for sort in [[], [QuerySortDescriptor(key: "n", ascending: false)]] {
                let pages = try await database.allPages(RecordQuery(recordType: type, sortDescriptors: sort), limit: 4)
                answers.append(pages.flatMap(\.names))
            }
        }
        let all = ["i1", "i2", "i3", "j0", "multi", "single", "other", "t1", "t2", "t3"].map { RecordID(recordName: $0) }
        answers.append(try await database.records(for: all).filter { (try? $0.value.get()) != nil }.map(\.key.recordName).sorted())
        try await database.delete(RecordID(recordName: "t2"))
        answers.append(try await database.records(for: all).filter { (try? $0.value.get()) != nil }.map(\.key.recordName).sorted())
        try await database.delete(RecordID(recordName: "t1"))
        answers.append(try await database.records(for: all).filter { (try? $0.value.get()) != nil }.map(\.key.recordName).sorted())
        return answers
    }

    @Test("a store opened from its checkpoint answers queries and cascades exactly as one opened by replay")
    func checkpointEqualsReplay() async throws {
        var results: [[[String]]] = []
        for useSnapshot in [true, false] {
            try await withStoreDirectory { path in
                let first = try await Database(directory: path, durability: .noSyncUnsafe)
                try await history(first)
                try first.close()
                if !useSnapshot { try FileManager.default.removeItem(atPath: snapshotPath(path)) }
                let database = try await Database(directory: path, durability: .noSyncUnsafe)
                #expect(database.openReport.zonesFromSnapshot == (useSnapshot ? 1 : 0))
                results.append(try await answers(database))
                try database.close()
            }
        }
        #expect(results[0] == results[1])
        #expect(results[0].last == ["i1", "i2", "j0", "other", "t3"])
    }

    @Test("an open that replays a tail of new records after its checkpoint keeps reading the index in place")
    func tailKeepsTheIndexMapped() async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            try await history(first)
            try first.checkpoint()
            try await first.saveAll((0..<20).map { queryRecord("tail\($0)", ["n": .int64(Int64($0)), "a": ref("t3")]) })
            try first.close()
            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(reopened.openReport.zonesFromSnapshot == 1 && reopened.openReport.replayedEvents == 20)
            let records = try reopened.zone(.default).records
            // The new records went into the room the checkpoint left: nothing moved to the heap.
            #expect(records.entries.isMapped && records.names.refs.isMapped && records.slots.buckets.isMapped)
            #expect(records["tail19"] != nil && records.referrers(of: "t3").contains("tail0"))
            try reopened.close()
        }
    }

    /// Damage done to a key index snapshot: to its bytes (caught by a CRC or the footer), or, with
    /// valid CRCs, to what its tables say (caught by the counts).
    enum Damage: String, CaseIterable, CustomStringConvertible {
        case flipInEntries, flipInFooter, truncated, empty, otherStore, formerVersionOnly
        case liveCountsDisagree, liveCountsWrapAround, freeSlotOutOfRange, extraTargetOfNoRecord, tooFewBuckets
        var description: String { rawValue }
    }

    /// `tables` rewritten as a snapshot with valid CRCs at `path`.
    private func rewrite(_ path: String, _ change: (inout KeyIndex) -> Void) throws {
        let read = try #require(KeyIndexSnapshot.read(path: path) { Issue.record("rejected: \($0)") })
        let zones = read.zones.map { name, zone in
            var records = zone.records
            if name == RecordLimits.defaultZoneName { change(&records) }
            return (name: name, incarnation: zone.covered.incarnation, offset: zone.covered.offset, records: records)
        }
        try KeyIndexSnapshot.write(zones, storeID: read.storeID, to: path)
    }

    @Test("a damaged, foreign or inconsistent checkpoint is ignored: full replay, same answers", arguments: Damage.allCases)
    func untrustedCheckpoint(_ damage: Damage) async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            try await history(first)
            try first.close()
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshotPath(path))))
            switch damage {
            case .flipInEntries:
                // A byte of a section (the zero padding between sections is not read).
                let data = try #require(bytes.indices.dropFirst(bytes.count / 3).first { bytes[$0] != 0 })
                bytes[data] ^= 0x10
            case .flipInFooter: bytes[bytes.count - 30] ^= 0x01
            case .truncated: bytes.removeLast(bytes.count / 2)
            case .empty: bytes = []
            case .otherStore, .formerVersionOnly: break
            case .liveCountsDisagree: try rewrite(snapshotPath(path)) { $0.liveByType[0] += 1 }
            case .liveCountsWrapAround:
                // Three counts whose sum, modulo 2⁶⁴, is the live count.
                try rewrite(snapshotPath(path)) { index in
                    #expect(index.liveByType.count == 3)
                    index.liveByType = [Int.max, Int.max, index.count + 2]
                }
            case .freeSlotOutOfRange:
                try rewrite(snapshotPath(path)) { index in
                    // The history's later saves took the slots its deletes freed: free one.
                    #expect(index.delete(name: "j9") == "Other")
                    index.freeSlots[index.freeSlots.count - 1] = Int32(index.entries.count)
                }
            case .extraTargetOfNoRecord: try rewrite(snapshotPath(path)) { $0.moreTargets[Int32($0.entries.count)] = [0] }
            case .tooFewBuckets: try rewrite(snapshotPath(path)) { $0.slots = SlotTable(seed: $0.slots.seed) }
            }
            switch damage {
            case .flipInEntries, .flipInFooter, .truncated, .empty:
                try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath(path)))
            case .otherStore:
                try await withStoreDirectory { other in
                    let database = try await Database(directory: other, durability: .noSyncUnsafe)
                    try await history(database)
                    try database.close()
                    try FileManager.default.removeItem(atPath: snapshotPath(path))
                    try FileManager.default.copyItem(atPath: snapshotPath(other), toPath: snapshotPath(path))
                }
            case .formerVersionOnly:
                // A store last checkpointed by a version that wrote `key-index.snapshot`.
                try FileManager.default.removeItem(atPath: snapshotPath(path))
                try Data("RLSS\u{4}".utf8).write(to: URL(fileURLWithPath: path + "/snapshots/key-index.snapshot"))
            default: break
            }

            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(reopened.openReport.zonesFromSnapshot == 0)
            let replayedAnswers = try await answers(reopened)
            try reopened.checkpoint()
            try reopened.close()
            #expect(!FileManager.default.fileExists(atPath: path + "/snapshots/key-index.snapshot"), "the checkpoint removes the former file")
            let again = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(again.openReport.zonesFromSnapshot == 1, "the checkpoint after replaying is used")
            try again.close()
            try await withStoreDirectory { fresh in
                let database = try await Database(directory: fresh, durability: .noSyncUnsafe)
                try await history(database)
                #expect(try await answers(database) == replayedAnswers)
                try database.close()
            }
        }
    }
}
