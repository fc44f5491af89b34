import Foundation
@testable import RecordStore
import Testing

/// A zone's latest client change token (FORMAT.md §10.1) outlives compaction: after the zone is
/// compacted — even when the event carrying the token is a delete that compaction would drop, or
/// a save a later commit replaced — and after a reopen following it (from the checkpoint, or by
/// replaying the log alone), zone-change fetches still echo the token, and a retry of the
/// latest commit is still recognised: it writes nothing and answers that commit's results.
/// Compaction keeps that commit's events whatever its rules say (FORMAT.md §13, rule 6).
@Suite struct CompactionClientTokenTests {
    private let zone = ZoneID(zoneName: "Notes")
    private func id(_ name: String) -> RecordID { RecordID(recordName: name, zoneID: zone) }

    /// How the database is opened again after the compaction.
    enum Reopen: String, CaseIterable, CustomTestStringConvertible {
        case none, fromCheckpoint, byReplay
        var testDescription: String { rawValue }
    }

    @Test("a retry of the zone's latest commit is recognised after a compaction that drops every other delete", arguments: Reopen.allCases)
    func retryAfterCompaction(reopen: Reopen) async throws {
        try await withStoreDirectory { path in
            var database = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
            try await database.createZone(zone)
            for round in 0..<3 {
                _ = try await database.modifyRecords(
                    saving: ["v", "w", "x", "y", "z"].map { makeRecord($0, zone: zone, ["v": .int64(Int64(round))]) }, deleting: [],
                    savePolicy: .allKeys)
            }
            _ = try await database.modifyRecords(saving: [], deleting: [id("v")])
            // The latest commit: its last event, which carries the token, is the delete of y.
            let saving = [makeRecord("x", zone: zone, ["v": .int64(9)])]
            let deleting = [id("w"), id("y")]
            let first = try await database.modifyRecords(
                saving: saving, deleting: deleting, savePolicy: .allKeys, clientChangeTokenData: Data("t".utf8))
            let reports = try await database.compact(zone: zone, tombstoneRetention: .zero)
            let report = try #require(reports.first)
            #expect(report.tombstonesDropped == 1, "only the delete of v goes; the latest commit's are kept")
            // Kept: z's last save, and the latest commit whole (x's save, w's and y's deletes).
            #expect(report.recordsRead == 19 && report.recordsRemoved == 15)
            database = try await reopened(database, path, reopen)

            #expect(try await database.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == Data("t".utf8))
            let before = try database.logSnapshot()
            let again = try await database.modifyRecords(
                saving: saving, deleting: deleting, savePolicy: .allKeys, clientChangeTokenData: Data("t".utf8))
            #expect(try database.logSnapshot() == before, "a retry wrote")
            #expect(try again.saveResults[id("x")]?.get() == first.saveResults[id("x")]?.get())
            for deleted in deleting {
                #expect((try? again.deleteResults[deleted]?.get()) != nil, "the retried delete of \(deleted) did not succeed as it did")
            }
            try database.close()
        }
    }

    @Test("fetches echo the latest client token after a compaction removed the save that carried it", arguments: Reopen.allCases)
    func echoAfterCompaction(reopen: Reopen) async throws {
        try await withStoreDirectory { path in
            var database = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
            try await database.createZone(zone)
            _ = try await database.modifyRecords(
                saving: [makeRecord("a", zone: zone, ["v": .int64(1)])], deleting: [], clientChangeTokenData: Data("t1".utf8))
            // A later commit without a token replaces the record whose save carried the token.
            let saved = try await database.fetchZoneChanges(in: zone, since: nil).changedRecords[0]
            var edited = saved
            edited["v"] = .int64(2)
            _ = try await database.save(edited)
            _ = try await database.compact(zone: zone, tombstoneRetention: .zero)
            database = try await reopened(database, path, reopen)

            let changes = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(changes.clientChangeTokenData == Data("t1".utf8))
            #expect(changes.changedRecords.map { $0["v"] } == [.int64(2)], "each record once, in its latest state")
            try database.close()
        }
    }

    /// Rule 6 keeps the latest client-token commit even where a later event replaced it; had a
    /// later delete of one of its records been dropped after its retention, that kept save would
    /// be the record's latest event again — a deleted record back from the dead for every fetch
    /// from nil and every replay.
    @Test("a delete after the kept commit stays while that commit is kept: the record it deleted stays deleted", arguments: Reopen.allCases)
    func deleteAfterKeptCommitStays(reopen: Reopen) async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
            try await checkDeleteAfterKeptCommitStays(database) { try await reopened($0, path, reopen) }.close()
        }
    }

    @Test("in memory too: a delete after the kept commit stays while that commit is kept")
    func deleteAfterKeptCommitStaysInMemory() async throws {
        try await withTemporaryDatabase(.memory) { database in _ = try await checkDeleteAfterKeptCommitStays(database) { $0 } }
    }

    /// A save of a and b carrying a client token, then a delete of a, compacted with no
    /// retention: a stays deleted in `reopen`'s database, which it returns.
    private func checkDeleteAfterKeptCommitStays(
        _ database: Database, reopen: (Database) async throws -> Database
    ) async throws -> Database {
        try await database.createZone(zone)
        _ = try await database.modifyRecords(
            saving: [makeRecord("a", zone: zone), makeRecord("b", zone: zone)], deleting: [], clientChangeTokenData: Data("t".utf8))
        _ = try await database.modifyRecords(saving: [], deleting: [id("a")])
        let report = try #require(try await database.compact(zone: zone, tombstoneRetention: .zero).first)
        #expect(report.tombstonesDropped == 0, "a's delete is the only thing that says the kept save of a is gone")
        let again = try await reopen(database)
        let changes = try await again.fetchZoneChanges(in: zone, since: nil)
        #expect(changes.changedRecords.map(\.recordID.recordName) == ["b"])
        #expect(changes.clientChangeTokenData == Data("t".utf8))
        await #expect(throws: RecordStoreError.self) { _ = try await again.record(for: id("a")) }
        return again
    }

    @Test("in memory too: a compaction keeps the latest commit's delete, so its retry succeeds")
    func inMemory() async throws {
        try await withTemporaryDatabase(.memory) { database in
            try await database.createZone(zone)
            _ = try await database.modifyRecords(saving: [makeRecord("a", zone: zone), makeRecord("b", zone: zone)], deleting: [])
            _ = try await database.modifyRecords(saving: [], deleting: [id("a")])
            let first = try await database.modifyRecords(saving: [], deleting: [id("b")], clientChangeTokenData: Data("t".utf8))
            let report = try #require(try await database.compact(zone: zone, tombstoneRetention: .zero).first)
            #expect(report.tombstonesDropped == 1, "a's delete goes, b's stays")
            let before = try database.logSnapshot()
            let again = try await database.modifyRecords(saving: [], deleting: [id("b")], clientChangeTokenData: Data("t".utf8))
            #expect(try database.logSnapshot() == before)
            #expect((try? again.deleteResults[id("b")]?.get()) != nil && (try? first.deleteResults[id("b")]?.get()) != nil)
            #expect(try await database.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == Data("t".utf8))
        }
    }

    /// The database opened again as `reopen` says (closing `database`), or `database` itself.
    private func reopened(_ database: Database, _ path: String, _ reopen: Reopen) async throws -> Database {
        guard reopen != .none else { return database }
        try database.checkpoint()
        try database.close()
        if reopen == .byReplay { try FileManager.default.removeItem(atPath: path + "/snapshots") }
        let again = try await Database(directory: path, durability: .noSyncUnsafe, compaction: .manual)
        #expect((again.openReport.zonesFromSnapshot > 0) == (reopen == .fromCheckpoint))
        return again
    }
}
