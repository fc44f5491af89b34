import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// `Database.inMemory()`: a database with no directory and no file, for app developers' unit
/// tests. What it shares with a store on disk is tested by the suites that run against both
/// (`StoreKind`); these are the things only an in-memory database promises.
@Suite struct InMemoryDatabaseTests {
    @Test("an in-memory database has no directory; its checkpoints, views and close touch no file")
    func noFiles() async throws {
        let database = try await Database.inMemory()
        #expect(database.directory == nil)
        #expect(database.log is MemoryLog)
        #expect(database.snapshotPath == nil)
        let texts = try database.register(NoteTexts.self)
        try await database.createZone(ZoneID(zoneName: "Z"))
        _ = try await database.save(makeRecord("n1", ["text": .string("hello")]))
        try database.checkpoint()
        #expect(database.state.withLock { $0.checkpointed == nil }, "nothing was written, so nothing is covered")
        #expect(await texts.current.texts["_defaultZone"] == ["n1": "hello"])
        #expect(database.syncCount == 0)
        try database.close()
        try database.removeTemporaryDirectory()
    }

    @Test("a view registered late is built from the events in memory")
    func viewsReplayFromMemory() async throws {
        let database = try await Database.inMemory()
        _ = try await database.save(makeRecord("n1", ["text": .string("one")]))
        try database.checkpoint()
        _ = try await database.save(makeRecord("n2", ["text": .string("two")]))
        let texts = try database.register(NoteTexts.self)
        #expect(!texts.fromSnapshot)
        #expect(await texts.current.texts["_defaultZone"] == ["n1": "one", "n2": "two"])
        #expect(await texts.current == (try database.rebuild(NoteTexts.self)))
        try database.close()
    }

    @Test("two in-memory databases are independent: records, zones and identities")
    func independent() async throws {
        let first = try await Database.inMemory()
        let second = try await Database.inMemory()
        let zone = ZoneID(zoneName: "Z")
        try await first.createZone(zone)
        let saved = try await first.save(makeRecord("n1", zone: zone, ["text": .string("first")]))
        _ = try await second.save(makeRecord("n1", ["text": .string("second")]))
        #expect(try await first.allZones() == [zone, .default])
        #expect(try await second.allZones() == [.default])
        #expect(try await first.record(for: saved.recordID) == saved)
        await expectError(.unknownItem) { _ = try await first.record(for: RecordID(recordName: "n1")) }
        #expect(first.storeID != second.storeID)
        try first.close()
        #expect(try await second.fetchZoneChanges(in: .default, since: nil).changedRecords.count == 1, "closing one leaves the other open")
        try second.close()
    }

    @Test("a change token from one in-memory database is refused by another, and by a store on disk, as between stores")
    func foreignTokens() async throws {
        let memory = try await Database.inMemory()
        let other = try await Database.inMemory()
        _ = try await memory.save(makeRecord("a"))
        let token = try await memory.fetchZoneChanges(in: .default, since: nil).changeToken
        let databaseToken = try await memory.fetchDatabaseChanges(since: nil).changeToken
        for database in [other, try await openTemporaryDatabase(.files)] {
            let error = await expectError(.invalidArguments, "another store's zone token") {
                _ = try await database.fetchZoneChanges(in: .default, since: token)
            }
            #expect(error?.message.contains("another store") == true)
            await expectError(.invalidArguments, "another store's database token") {
                _ = try await database.fetchDatabaseChanges(since: databaseToken)
            }
            try database.removeTemporaryDirectory()
        }
        #expect(try await memory.fetchZoneChanges(in: .default, since: token).changedRecords.isEmpty, "its own token still serves")
        try memory.close()
    }

    @Test("a closed in-memory database refuses every call, as one on disk does")
    func closedDatabase() async throws {
        let database = try await Database.inMemory()
        _ = try await database.save(makeRecord("n1"))
        try database.close()
        try database.close()
        await expectError(.internalError) { _ = try await database.save(makeRecord("n2")) }
        await expectError(.internalError) { _ = try await database.record(for: RecordID(recordName: "n1")) }
        await expectError(.internalError) { _ = try await database.allZones() }
        await expectError(.internalError) { _ = try await database.fetchZoneChanges(in: .default, since: nil) }
        await expectError(.internalError) { try database.checkpoint() }
    }

    @Test("maximumItemsPerRequest bounds an in-memory database's requests as it does one on disk")
    func requestLimit() async throws {
        let database = try await Database.inMemory(maximumItemsPerRequest: 2)
        #expect(database.maximumItemsPerRequest == 2)
        await expectError(.limitExceeded) {
            _ = try await database.modifyRecords(saving: (0..<3).map { makeRecord("n\($0)") }, deleting: [])
        }
        try database.close()
    }
}
