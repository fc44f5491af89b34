import Foundation
import Logging
import RecordLog
import RecordPostgres
import RecordStore
import Testing

/// Export and import: a database of PostgreSQL as an ordinary store directory, and back.
@Suite(.enabled(if: TestPostgres.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct PostgresTransferTests {
    let url = TestPostgres.url ?? ""
    let zone = ZoneID(zoneName: "Notes")

    @Test("an exported database opens as an ordinary store with the same records; imported again under a new name, it serves them too")
    func exportThenImport() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirror, exported, mirror2) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [mirror, exported, mirror2] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let database = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
            _ = try await database.createZone(zone)
            for index in 0..<50 { _ = try await database.save(PostgresMirrorTests.note("n\(index)", "note \(index)", in: zone)) }
            try await database.delete(RecordID(recordName: "n7", zoneID: zone))
            let expected = try await PostgresMirrorTests.contents(database, zone)
            try database.close()

            let report = try await PostgresTransfer.export(cluster.log(of: name), to: exported, logger: Logger(label: "test"))
            #expect(report.zones == 2 && report.batches >= 52)
            // Exporting into a store that exists is refused.
            await #expect(throws: LogError.self) { _ = try await PostgresTransfer.export(cluster.log(of: name), to: exported, logger: Logger(label: "test")) }
            let store = try await Database(directory: exported)
            #expect(try await PostgresMirrorTests.contents(store, zone) == expected)
            try store.close()

            let copy = TestPostgres.freshDatabase()
            let imported = try await PostgresTransfer.importStore(from: exported, into: cluster.log(of: copy), logger: Logger(label: "test"))
            // Every batch, byte for byte (the store, once opened, may hold an empty partition more).
            #expect(imported.batches == report.batches && imported.bytes == report.bytes)
            let served = try await cluster.openDatabase(copy, mirror: mirror2, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(served, zone) == expected)
            _ = try await served.save(PostgresMirrorTests.note("after", "written after the import", in: zone))
            try served.close()
            // A database that exists is not imported over.
            await #expect(throws: PostgresLogError.self) {
                _ = try await PostgresTransfer.importStore(from: exported, into: cluster.log(of: copy), logger: Logger(label: "test"))
            }
            #expect(try await cluster.log(of: copy).heads()["Notes"]?.endOffset == 52)
        }
    }

    @Test("a store its compactions re-batched and cleaned (its log still starting at 0) imports; its records, a change token taken before, and writes after the import all work on two mirrors")
    func compactedStoreImports() async throws {
        let (store, mirror, mirror2) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [store, mirror, mirror2] { try? FileManager.default.removeItem(atPath: path) } }
        // One note a commit, as a server writes them, each edited once: compaction removes the
        // first versions (batches with offsets missing inside) and merges what is left.
        let local = try await Database(directory: store, durability: .noSyncUnsafe, compaction: .manual)
        _ = try await local.createZone(zone)
        for index in 0..<120 { _ = try await local.save(PostgresMirrorTests.note("n\(index)", "first \(index)", in: zone)) }
        let token = try await local.fetchZoneChanges(in: zone, since: nil).changeToken
        for index in 0..<60 {
            var record = try await local.record(for: RecordID(recordName: "n\(index)", zoneID: zone))
            record["title"] = .string("edited \(index)")
            _ = try await local.save(record)
        }
        let reports = try await local.compact(zone: zone, tombstoneRetention: .seconds(86_400))
        #expect(reports.first?.recordsRemoved == 60)
        let expected = try await PostgresMirrorTests.contents(local, zone)
        let expectedSince = try await local.fetchZoneChanges(in: zone, since: token).changedRecords.map(\.recordID.recordName)
        try local.close()

        try await PostgresCluster.with(url: url) { cluster in
            let name = TestPostgres.freshDatabase()
            let imported = try await PostgresTransfer.importStore(from: store, into: cluster.log(of: name), logger: Logger(label: "test"))
            #expect(imported.zones >= 2)
            let served = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(served, zone) == expected)
            #expect(try await served.fetchZoneChanges(in: zone, since: token).changedRecords.map(\.recordID.recordName) == expectedSince)
            _ = try await served.save(PostgresMirrorTests.note("after", "written after the import", in: zone))
            let final = try await PostgresMirrorTests.contents(served, zone)
            #expect(final.count == expected.count + 1)
            try served.close()
            // A second node's mirror, built from the rows alone.
            let other = try await cluster.openDatabase(name, mirror: mirror2, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(other, zone) == final)
            try other.close()
        }
    }
}
