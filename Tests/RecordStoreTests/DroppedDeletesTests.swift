import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// A zone's deleted names (what a save re-creating a record names as its `previous`, FORMAT.md
/// §10.1) keep the deletes the log still holds, not every name ever deleted: a compaction that
/// drops deletes forgets them, and so does an open, from a checkpoint written before that
/// compaction or by replay — and a re-created record's first save then names −1, where its walk
/// ends as it would have at the removed delete.
@Suite struct DroppedDeletesTests {
    static func item(_ name: String, _ value: Int64 = 0) -> Record {
        var record = Record(recordType: "Item", recordID: RecordID(recordName: name))
        record["n"] = .int64(value)
        return record
    }

    /// The default zone's deleted names.
    static func deletedNames(_ database: Database) throws -> DeletedNames {
        try #require(database.state.withLock { $0.zones[.default]?.deleted })
    }

    @Test("a compaction that drops deletes forgets them: a record re-created after names −1", arguments: StoreKind.compactable)
    func compactionForgetsDroppedDeletes(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.modifyRecords(saving: ["a", "b", "c"].map { Self.item($0) }, deleting: [])  // 0, 1, 2
            _ = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "a"), RecordID(recordName: "b")])  // 3, 4
            #expect(try Self.deletedNames(database).count == 2)
            // Kept for their retention: still known.
            let kept = try #require(try await database.compact(tombstoneRetention: .seconds(3600)).first { $0.partition == ZoneID.default.zoneName })
            #expect(kept.tombstonesDropped == 0)
            #expect(try Self.deletedNames(database).entries == [DeletedNames.hash("a"): 3, DeletedNames.hash("b"): 4])

            let dropped = try #require(try await database.compact(tombstoneRetention: .zero).first { $0.partition == ZoneID.default.zoneName })
            #expect(dropped.tombstonesDropped == 2)
            #expect(try Self.deletedNames(database).count == 0)
            try await database.delete(RecordID(recordName: "c"))  // 5: after the compaction, known
            _ = try await database.save(Self.item("a", 1))  // 6
            _ = try await database.save(Self.item("c", 1))  // 7
            let events = try database.log.partition(named: ZoneID.default.zoneName).records(from: 6, to: nil, limit: .max)
            #expect(events.map { StoredEvent($0).previous } == [.none, .at(5)])
        }
    }

    /// How a test store is opened again.
    enum Reopen: String, CaseIterable, CustomTestStringConvertible {
        case fromCheckpoint, byReplay
        var testDescription: String { rawValue }
    }

    @Test("an open forgets the deletes dropped after its checkpoint was written, and agrees with a replay", arguments: Reopen.allCases)
    func openForgetsDroppedDeletes(reopen: Reopen) async throws {
        try await withStoreDirectory { path in
            var database = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
            _ = try await database.modifyRecords(saving: ["a", "b", "c"].map { Self.item($0) }, deleting: [])  // 0, 1, 2
            _ = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "a"), RecordID(recordName: "b")])  // 3, 4
            try database.checkpoint()  // holds a and b
            try await database.compact(zone: .default, tombstoneRetention: .zero)
            try await database.delete(RecordID(recordName: "c"))  // 5
            // Too few events since the checkpoint for close to write another.
            try database.close()
            if reopen == .byReplay { try FileManager.default.removeItem(atPath: path + "/snapshots") }

            database = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
            #expect((database.openReport.zonesFromSnapshot > 0) == (reopen == .fromCheckpoint))
            let deleted = try Self.deletedNames(database)
            #expect(deleted.isComplete)
            #expect(deleted.entries == [DeletedNames.hash("c"): 5])
            _ = try await database.save(Self.item("a", 1))  // 6
            _ = try await database.save(Self.item("b", 1))  // 7
            _ = try await database.save(Self.item("c", 1))  // 8
            let events = try database.log.partition(named: ZoneID.default.zoneName).records(from: 6, to: nil, limit: .max)
            #expect(events.map { StoredEvent($0).previous } == [.none, .none, .at(5)])
            // The next checkpoint holds only what is left.
            try database.checkpoint()
            try database.close()
            let read = try #require(KeyIndexSnapshot.read(path: path + "/snapshots/key-index.mapped") { Issue.record("rejected: \($0)") })
            #expect(read.zones[ZoneID.default.zoneName]?.deleted.entries == [DeletedNames.hash("c"): 5])
        }
    }

    @Test("forgetting keeps a delete made while the entries were listed")
    func forgettingKeepsALaterDelete() {
        var deleted = DeletedNames(complete: true)
        deleted.recordDelete(of: "a", at: 3)
        deleted.recordDelete(of: "b", at: 4)
        let dropped = deleted.dropped(below: 5)
        #expect(Set(dropped) == [DeletedNames.hash("a"), DeletedNames.hash("b")])
        deleted.recordDelete(of: "b", at: 9)  // b re-created and deleted again meanwhile
        deleted.forget(dropped, below: 5)
        #expect(deleted.entries == [DeletedNames.hash("b"): 9])
        #expect(deleted.previousOfRecreated("a") == StoredEvent.noPreviousEvent)
        #expect(deleted.dropped(below: 5).isEmpty && deleted.forgottenBelow == 5)
    }
}
