import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// Every save and delete of a zone names its record's previous event (`previous`, FORMAT.md
/// §10.1), so that a tool can walk one record's versions without reading the zone: the offset
/// of the live version, of the delete before a re-creation, −1 for a first event — also after
/// the store was closed and opened again from its checkpoint, or replayed.
@Suite struct PreviousHeaderTests {
    /// The `previous` of each event of the default zone, by offset.
    static func previousHeaders(_ database: Database, zone: ZoneID = .default) throws -> [PreviousEvent] {
        try database.log.partition(named: zone.zoneName).records(from: 0, to: nil, limit: .max).map { StoredEvent($0).previous }
    }

    static func item(_ name: String, _ value: Int64) -> Record {
        var record = Record(recordType: "Item", recordID: RecordID(recordName: name))
        record["n"] = .int64(value)
        return record
    }

    @Test("each event names its record's previous one: a first save −1, an update and a delete the live save, a re-creation the delete", arguments: StoreKind.allCases)
    func headersFollowTheRecord(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(Self.item("a", 1))  // 0
            _ = try await database.save(Self.item("b", 1))  // 1
            _ = try await database.save(Self.item("a", 2), savePolicy: .allKeys)  // 2
            try await database.delete(RecordID(recordName: "a"))  // 3
            _ = try await database.modifyRecords(saving: [Self.item("a", 3), Self.item("c", 1)], deleting: [RecordID(recordName: "b")])  // 4, 5, 6
            #expect(try Self.previousHeaders(database) == [.none, .none, .at(0), .at(2), .at(3), .none, .at(1)])
        }
    }

    @Test("the header is the 8 bytes FORMAT.md gives, after the event's other headers")
    func headerBytes() async throws {
        try await withTemporaryDatabase { database in
            for value in 0..<301 { _ = try await database.save(Self.item("r\(value)", 0)) }
            _ = try await database.save(Self.item("r300", 1), savePolicy: .allKeys)
            let record = try #require(try database.log.partition(named: ZoneID.default.zoneName).records(from: 301, to: nil, limit: 1).first)
            #expect(record.headers.map(\.key) == ["event", "recordType", "changeTag", "previous"])
            #expect(record.headers.last?.value == [0, 0, 0, 0, 0, 0, 0x01, 0x2C])
            let first = try #require(try database.log.partition(named: ZoneID.default.zoneName).records(from: 0, to: nil, limit: 1).first)
            #expect(first.headers.last?.value == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test("a store reopened from its checkpoint, or replayed without one, still names the delete before a re-creation", arguments: [true, false])
    func deletesOutliveTheProcess(checkpoint: Bool) async throws {
        try await withStoreDirectory { path in
            var database = try await Database(directory: path, durability: .noSyncUnsafe)
            _ = try await database.save(Self.item("a", 1))  // 0
            try await database.delete(RecordID(recordName: "a"))  // 1
            if checkpoint { try database.checkpoint() }
            try database.close()
            if !checkpoint { try? FileManager.default.removeItem(atPath: path + "/snapshots") }
            database = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(database.openReport.zonesFromSnapshot == (checkpoint ? 1 : 0))
            _ = try await database.save(Self.item("a", 2))  // 2
            _ = try await database.save(Self.item("z", 1))  // 3
            #expect(try Self.previousHeaders(database) == [.none, .at(0), .at(1), .none])
            try database.close()
        }
    }

    @Test("after opening from a checkpoint that kept no deletes (version 6), a save of a record not live names nothing; the next checkpoint is complete again")
    func checkpointWithoutDeletesCannotTell() async throws {
        try await withStoreDirectory { path in
            var database = try await Database(directory: path, durability: .noSyncUnsafe)
            _ = try await database.save(Self.item("a", 1))  // 0
            try await database.delete(RecordID(recordName: "a"))  // 1
            try database.checkpoint()
            try database.close()
            let snapshotPath = path + "/snapshots/key-index.mapped"
            let read = try #require(KeyIndexSnapshot.read(path: snapshotPath) { Issue.record("rejected: \($0)") })
            #expect(read.zones.values.allSatisfy { $0.deleted.isComplete && $0.deleted.count == ($0.covered.offset > 0 ? 1 : 0) })
            let zones = read.zones.map { (name: $0.key, incarnation: $0.value.covered.incarnation, offset: $0.value.covered.offset, records: $0.value.records) }
            try KeyIndexSnapshot.write(zones, storeID: read.storeID, to: snapshotPath, version: KeyIndexSnapshot.Header.versionWithClientTokens)

            database = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(database.openReport.zonesFromSnapshot == 1)
            _ = try await database.save(Self.item("a", 2))  // 2: re-created, the writer cannot tell
            _ = try await database.save(Self.item("a", 3), savePolicy: .allKeys)  // 3: live, it can
            try await database.delete(RecordID(recordName: "a"))  // 4
            #expect(try Self.previousHeaders(database) == [.none, .at(0), .unknown, .at(2), .at(3)])
            try database.checkpoint()
            try database.close()
            // The zone's deleted names stay incomplete (the deletes before version 6 are unknown).
            let again = try #require(KeyIndexSnapshot.read(path: snapshotPath) { Issue.record("rejected: \($0)") })
            let zone = try #require(again.zones[ZoneID.default.zoneName])
            #expect(!zone.deleted.isComplete && zone.deleted.entries == [DeletedNames.hash("a"): 4])
        }
    }

    @Test("a deleted-names section that does not add up is refused: the zones are replayed")
    func damagedDeletedNamesAreRefused() {
        var bytes: [UInt8] = []
        DeletedNames(offsets: [7: 12, 3: 4], complete: true).appendSnapshot(to: &bytes)
        bytes.withUnsafeBytes { raw in
            let read = DeletedNames.readSnapshot(raw, count: 1)
            #expect(read?.first?.entries == [7: 12, 3: 4] && read?.first?.isComplete == true)
            #expect(DeletedNames.readSnapshot(raw, count: 2) == nil, "too few zones")
            #expect(DeletedNames.readSnapshot(UnsafeRawBufferPointer(rebasing: raw.dropLast(8)), count: 1) == nil, "cut")
        }
        var unsorted = bytes
        unsorted.swapAt(16, 32)  // the two hashes' low bytes: 3 and 7 change places
        unsorted.withUnsafeBytes { #expect(DeletedNames.readSnapshot($0, count: 1) == nil, "hashes not ascending") }
        var flag = bytes
        flag[0] = 2
        flag.withUnsafeBytes { #expect(DeletedNames.readSnapshot($0, count: 1) == nil, "a flag other than 0 or 1") }
    }
}
