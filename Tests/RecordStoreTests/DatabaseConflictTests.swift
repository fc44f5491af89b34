import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// Optimistic concurrency: change tags and the three save policies.
@Suite(.everyTuning) struct DatabaseConflictTests {
    /// Saves `n1` with a=1, b=1, c=1; then "another client" changes b to 2. Returns the first
    /// client's now stale copy and the server's current copy.
    private func staleCopy(_ database: Database) async throws -> (stale: Record, server: Record) {
        let original = try await database.save(makeRecord("n1", ["a": .int64(1), "b": .int64(1), "c": .int64(1)]))
        var other = try await database.record(for: original.recordID)
        other["b"] = .int64(2)
        let server = try await database.save(other)
        return (original, server)
    }

    @Test(".ifServerRecordUnchanged: a stale tag fails with serverRecordChanged carrying the server's record; nothing written", arguments: StoreKind.allCases)
    func staleTag(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (copy, server) = try await staleCopy(database)
            var stale = copy
            stale["a"] = .int64(9)
            let before = try database.logSnapshot()
            let error = await expectError(.serverRecordChanged) { _ = try await database.save(stale) }
            #expect(error?.recordID == stale.recordID)
            #expect(error?.serverRecord == server)
            #expect(error?.serverRecord?.recordChangeTag == server.recordChangeTag)
            #expect(try database.logSnapshot() == before)
            #expect(try await database.record(for: stale.recordID) == server)

            // The same through modifyRecords: partialFailure whose item error carries the record.
            let batch = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [stale], deleting: [], savePolicy: .ifServerRecordUnchanged)
            }
            #expect(batch?.partialErrors[stale.recordID]?.code == .serverRecordChanged)
            #expect(batch?.partialErrors[stale.recordID]?.serverRecord == server)

            // The CloudKit way out: apply the change to the server's record and save that.
            var resolved = try #require(error?.serverRecord)
            resolved["a"] = .int64(9)
            let saved = try await database.save(resolved)
            #expect(saved["a"] == .int64(9) && saved["b"] == .int64(2))
        }
    }

    @Test(".ifServerRecordUnchanged: inserting a record whose name exists, without its tag, fails with serverRecordChanged", arguments: StoreKind.allCases)
    func insertExistingName(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let server = try await database.save(makeRecord("n1", ["a": .int64(1)]))
            let before = try database.logSnapshot()
            let error = await expectError(.serverRecordChanged) { _ = try await database.save(makeRecord("n1", ["a": .int64(2)])) }
            #expect(error?.serverRecord == server)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test(".changedKeys writes only the locally changed keys onto the server's copy, whatever the tag", arguments: StoreKind.allCases)
    func changedKeysMerges(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (copy, server) = try await staleCopy(database)
            var stale = copy
            stale["a"] = .int64(9)  // changed locally
            stale["c"] = nil  // removed locally
            stale["d"] = .string("new")  // added locally
            #expect(stale.changedKeys() == ["a", "c", "d"])
            let saved = try await database.save(stale, savePolicy: .changedKeys)
            #expect(saved["a"] == .int64(9))
            #expect(saved["b"] == .int64(2), "the server's change to b survives")
            #expect(saved["c"] == nil, "a key removed locally is removed")
            #expect(saved["d"] == .string("new"))
            #expect(saved.allKeys() == ["a", "b", "d"])
            #expect(saved.creationDate == server.creationDate)
            #expect(saved.recordChangeTag != server.recordChangeTag && saved.recordChangeTag != stale.recordChangeTag)
            #expect(try await database.record(for: stale.recordID) == saved)
        }
    }

    @Test(".changedKeys with a record that does not exist creates it; with another record type it is refused", arguments: StoreKind.allCases)
    func changedKeysEdgeCases(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let created = try await database.save(makeRecord("fresh", ["a": .int64(1)]), savePolicy: .changedKeys)
            #expect(created["a"] == .int64(1))
            #expect(created.creationDate != nil)

            let before = try database.endOffset(.default)
            let error = await expectError(.invalidArguments) {
                _ = try await database.save(makeRecord("fresh", type: "Task", ["a": .int64(2)]), savePolicy: .changedKeys)
            }
            #expect(error?.recordID == created.recordID)
            #expect(try database.endOffset(.default) == before)
        }
    }

    @Test(".allKeys writes every local key over the server's copy, whatever the tag, and keeps the server's other keys", arguments: StoreKind.allCases)
    func allKeysOverwrites(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (copy, server) = try await staleCopy(database)
            var stale = copy
            stale["a"] = .int64(9)
            stale["c"] = nil
            let saved = try await database.save(stale, savePolicy: .allKeys)
            #expect(saved.allKeys() == ["a", "b"], "c was set to nil: removed")
            #expect(saved["a"] == .int64(9))
            #expect(saved["b"] == .int64(1), "the local (stale) value of b overwrites the server's")
            #expect(saved.creationDate == server.creationDate)
            #expect(try await database.record(for: stale.recordID) == saved)

            // Inserting over an existing name without a tag also succeeds, and keeps the keys
            // the new record does not have (as CloudKit: no policy deletes an untouched key).
            let replaced = try await database.save(makeRecord("n1", ["z": .bool(true)]), savePolicy: .allKeys)
            #expect(replaced.allKeys() == ["a", "b", "z"])
            #expect(replaced.creationDate == server.creationDate, "it is the same record, updated")
        }
    }

    @Test("the default policy keeps the server's fields that a partial fetch (desiredKeys) did not return", arguments: StoreKind.allCases)
    func partialFetchThenSave(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("n1", ["title": .string("t"), "body": .string("a long body")]))
            var partial = try await database.record(for: saved.recordID, desiredKeys: ["title"])
            partial["title"] = .string("t2")
            let result = try await database.save(partial)
            #expect(result["title"] == .string("t2"))
            let stored = try await database.record(for: saved.recordID)
            #expect(result["body"] == .string("a long body"))
            #expect(stored["body"] == .string("a long body"))
            
        }
    }

    @Test("a change tag from a deleted incarnation of a zone is stale in the recreated zone", arguments: StoreKind.allCases)
    func tagFromDeletedZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "Z")
            try await database.createZone(zone)
            var old = try await database.save(makeRecord("r", zone: zone, ["v": .string("old world")]))
            try await database.deleteZone(zone)
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("r", zone: zone, ["v": .string("new world")]))
            old["v"] = .string("overwritten by a stale client")
            await expectError(.serverRecordChanged) { _ = try await database.save(old) }
            
        }
    }
}
