import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// The compact key index across checkpoints: slots reused by deletes, record types that change,
/// records with several `.deleteSelf` targets, and checkpoints that must not be trusted.
@Suite struct KeyIndexCheckpointTests {
    private func snapshotPath(_ path: String) -> String { path + "/snapshots/key-index.snapshot" }

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

    @Test(
        "a checkpoint of another version, or whose tables do not fit together, is ignored: full replay, same answers",
        arguments: ["version 3", "type out of range", "target out of range", "name twice", "offset beyond coverage", "extra target of no record"])
    func untrustedCheckpoint(_ damage: String) async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            try await history(first)
            try first.close()
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: snapshotPath(path))))
            var snapshot = try #require(StateSnapshot(bytes: bytes))
            var tables = snapshot.zones[0].records
            switch damage {
            case "version 3": break
            case "type out of range": tables.entries[0].typeID = Int32(tables.types.count)
            case "target out of range":
                let index = try #require(tables.entries.firstIndex { $0.target != RecordEntry.noTarget })
                tables.entries[index].target = Int32(tables.targets.count)
            case "name twice": tables.names[1] = tables.names[0]
            case "offset beyond coverage": tables.entries[0].offset = snapshot.zones[0].coveredOffset
            default: tables.moreTargets[Int32(tables.entries.count)] = [0]
            }
            snapshot.zones[0].records = tables
            var damaged = snapshot.encoded()
            if damage == "version 3" {
                // The same tables under the old version byte, with a valid checksum.
                damaged.removeLast(4)
                damaged[4] = 3
                damaged += withUnsafeBytes(of: CRC32C.checksum(damaged).bigEndian) { Array($0) }
            }
            try Data(damaged).write(to: URL(fileURLWithPath: snapshotPath(path)))

            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(reopened.openReport.zonesFromSnapshot == 0)
            let replayedAnswers = try await answers(reopened)
            try reopened.close()
            try FileManager.default.removeItem(atPath: path)
            try await withStoreDirectory { fresh in
                let database = try await Database(directory: fresh, durability: .noSyncUnsafe)
                try await history(database)
                #expect(try await answers(database) == replayedAnswers)
                try database.close()
            }
        }
    }
}
