import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TuningSupport

/// Zones: the default zone, create, delete, list, fetch.
@Suite(.everyTuning) struct DatabaseZoneTests {
    @Test("a store whose system log creates a zone with an invalid name does not open")
    func invalidZoneInSystemLog() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            let zone = try await database.createZone(ZoneID(zoneName: "Notes"))
            _ = try await database.save(makeRecord("n1", zone: zone))
            try database.close()
            // What a damaged or forged store could hold: the records of a zone whose name the
            // database would never have created. They are read without checking the zone again.
            let log = try Log(directory: path, options: LogOptions(durability: .noSyncUnsafe))
            var batch = RecordBatchBuilder()
            batch.append(key: "_private", value: [], headers: StoredEvent.headers(.createZone))
            _ = try await log.append(batch, to: StoredEvent.systemPartition)
            try log.close()
            let error = await expectError(.internalError) { _ = try await Database(directory: path, durability: .noSyncUnsafe) }
            #expect(error?.message.contains("_private") == true)
        }
    }

    @Test("changes fetched again and again, then from the zone deleted and created again, are the new zone's", arguments: StoreKind.allCases)
    func changesOfRecreatedZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = try await database.createZone(ZoneID(zoneName: "Notes"))
            _ = try await database.modifyRecords(saving: (0..<50).map { makeRecord("old-\($0)", zone: zone, ["n": .int64(Int64($0))]) }, deleting: [])
            // Read three times: the log keeps the batches read again (`LogOptions.batchCacheBytes`).
            for _ in 1...3 { #expect(try await database.fetchZoneChanges(in: zone, since: nil).changedRecords.count == 50) }
            try await database.deleteZone(zone)
            _ = try await database.createZone(zone)
            _ = try await database.modifyRecords(saving: (0..<50).map { makeRecord("new-\($0)", zone: zone) }, deleting: [])
            for _ in 1...3 {
                let names = try await database.fetchZoneChanges(in: zone, since: nil).changedRecords.map(\.recordID.recordName)
                #expect(names == (0..<50).map { "new-\($0)" })
            }
        }
    }

    @Test("a new store has exactly the default zone, which cannot be deleted", arguments: StoreKind.allCases)
    func defaultZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            #expect(try await database.allZones() == [.default])
            #expect(try await database.fetchZone(.default) == .default)
            let before = try database.logSnapshot()
            let error = await expectError(.invalidArguments) { try await database.deleteZone(.default) }
            #expect(error?.zoneID == .default)
            #expect(try await database.allZones() == [.default])
            #expect(try database.logSnapshot() == before)
            // Creating it is allowed and changes nothing.
            #expect(try await database.createZone(.default) == .default)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("createZone is idempotent: a second create writes nothing and keeps the zone's records", arguments: StoreKind.allCases)
    func createIdempotent(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "Notes")
            #expect(try await database.createZone(zone) == zone)
            #expect(try await database.fetchZone(zone) == zone)
            let saved = try await database.save(makeRecord("n1", zone: zone))
            let before = try database.logSnapshot()
            #expect(try await database.createZone(zone) == zone)
            #expect(try database.logSnapshot() == before)
            #expect(try await database.record(for: saved.recordID) == saved)
            #expect(try await database.allZones() == [.default, zone].sorted { $0.zoneName < $1.zoneName })
        }
    }

    @Test("allZones lists every zone, sorted by name", arguments: StoreKind.allCases)
    func allZonesSorted(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            for name in ["b", "A", "c", "Zed"] { try await database.createZone(ZoneID(zoneName: name)) }
            let names = try await database.allZones().map(\.zoneName)
            #expect(names == names.sorted())
            #expect(Set(names) == ["A", "Zed", "_defaultZone", "b", "c"])
        }
    }

    @Test(
        "invalid zone names and other owners are refused with invalidArguments",
        arguments: [
            ZoneID(zoneName: ""), ZoneID(zoneName: "_private"), ZoneID(zoneName: String(repeating: "z", count: 256)),
            ZoneID(zoneName: "zöne"), ZoneID(zoneName: "Shared", ownerName: "_someoneElse"), ZoneID(zoneName: "Z", ownerName: ""),
        ])
    func invalidZones(_ zone: ZoneID) async throws {
        try await withTemporaryDatabase { database in
            let before = try database.logSnapshot()
            await expectError(.invalidArguments) { try await database.createZone(zone) }
            #expect(try database.logSnapshot() == before)
            #expect(try await database.allZones() == [.default])
        }
    }

    @Test("deleteZone removes the zone, its records and its files; the name can be created again, empty")
    func deleteZone() async throws {
        try await withTemporaryDatabase { database in
            let zone = ZoneID(zoneName: "Doomed")
            try await database.createZone(zone)
            let records = try await database.modifyRecords(saving: (0..<10).map { makeRecord("r\($0)", zone: zone) }, deleting: [])
            let ids = Array(records.saveResults.keys)
            let directory = try database.zoneDirectory(zone)
            #expect(FileManager.default.fileExists(atPath: directory))
            let kept = try await database.save(makeRecord("kept"))

            try await database.deleteZone(zone)
            #expect(try await database.allZones() == [.default])
            #expect(!FileManager.default.fileExists(atPath: directory), "the zone's files are gone")
            await expectError(.zoneNotFound) { _ = try await database.fetchZone(zone) }
            for result in try await database.records(for: ids).values { #expect(failure(result)?.code == .zoneNotFound) }
            #expect(try await database.record(for: kept.recordID) == kept, "other zones are untouched")

            try await database.createZone(zone)
            for result in try await database.records(for: ids).values { #expect(failure(result)?.code == .unknownItem) }
            let changes = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(changes.changedRecords.isEmpty && changes.deletions.isEmpty)
            // New records get their own history.
            _ = try await database.save(makeRecord("r0", zone: zone))
            #expect(try await database.fetchZoneChanges(in: zone, since: nil).changedRecords.map(\.recordID.recordName) == ["r0"])
        }
    }

    @Test("every call about a zone that does not exist fails with zoneNotFound", arguments: StoreKind.allCases)
    func unknownZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "Nowhere")
            let before = try database.logSnapshot()
            await expectError(.zoneNotFound) { _ = try await database.fetchZone(zone) }
            await expectError(.zoneNotFound) { try await database.deleteZone(zone) }
            await expectError(.zoneNotFound) { _ = try await database.save(makeRecord("n1", zone: zone)) }
            await expectError(.zoneNotFound) { try await database.delete(RecordID(recordName: "n1", zoneID: zone)) }
            await expectError(.zoneNotFound) { _ = try await database.record(for: RecordID(recordName: "n1", zoneID: zone)) }
            await expectError(.zoneNotFound) { _ = try await database.fetchZoneChanges(in: zone, since: nil) }
            let batch = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [makeRecord("n1", zone: zone), makeRecord("ok")], deleting: [])
            }
            #expect(batch?.partialErrors[RecordID(recordName: "n1", zoneID: zone)]?.code == .zoneNotFound)
            #expect(batch?.partialErrors[RecordID(recordName: "ok")]?.code == .batchRequestFailed)
            #expect(try database.logSnapshot() == before)
        }
    }
}
