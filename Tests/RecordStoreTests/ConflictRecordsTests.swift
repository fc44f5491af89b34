import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// CloudKit's conflict and save-policy contract, from its documentation: a `serverRecordChanged`
/// error carries the server's record, the client's record as sent and the ancestor (the version
/// the client's change tag names); `.changedKeys` saves the fields that changed, `.allKeys` every
/// key of the record; a server record may hold keys the client does not have, and no policy
/// removes them.
@Suite(.everyTuning) struct ConflictRecordsTests {
    /// v1 (a=1, b=1, c=1) is fetched by this client; another client then saves v2 (b=2) and v3
    /// (c=3). Returns the fetched v1 and the server's v3.
    private func fetchedThenChangedTwice(_ database: Database) async throws -> (fetched: Record, server: Record) {
        let fetched = try await database.save(makeRecord("n1", ["a": .int64(1), "b": .int64(1), "c": .int64(1)]))
        var other = try await database.record(for: fetched.recordID)
        other["b"] = .int64(2)
        other = try await database.save(other)
        other["c"] = .int64(3)
        let server = try await database.save(other)
        return (fetched, server)
    }

    @Test("a conflict carries the server's record, the client's as sent, and the ancestor its change tag names", arguments: StoreKind.allCases)
    func threeRecords(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (fetched, server) = try await fetchedThenChangedTwice(database)
            var edited = fetched
            edited["a"] = .int64(9)
            let before = try database.logSnapshot()
            let error = try #require(await expectError(.serverRecordChanged) { _ = try await database.save(edited) })
            #expect(error.serverRecord == server)
            #expect(error.clientRecord == edited)
            #expect(error.clientRecord?.changedKeys() == ["a"], "the client's record as sent, its edits included")
            #expect(error.ancestorRecord == fetched, "the version the client fetched, not the one before the server's")
            #expect(error.ancestorRecord?.recordChangeTag == fetched.recordChangeTag)
            #expect(try database.logSnapshot() == before)

            // A three-way merge from the three: the client's edit of a, the server's of b and c.
            var merged = try #require(error.serverRecord)
            let ancestor = try #require(error.ancestorRecord)
            for key in edited.allKeys() where edited[key] != ancestor[key] { merged[key] = edited[key] }
            let saved = try await database.save(merged)
            #expect(saved["a"] == .int64(9) && saved["b"] == .int64(2) && saved["c"] == .int64(3))
        }
    }

    @Test("an atomic batch's item error carries the three records too", arguments: StoreKind.allCases)
    func threeRecordsInABatch(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (fetched, server) = try await fetchedThenChangedTwice(database)
            var edited = fetched
            edited["a"] = .int64(9)
            let batch = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [edited, makeRecord("other")], deleting: [])
            }
            let item = try #require(batch?.partialErrors[edited.recordID])
            #expect(item.code == .serverRecordChanged)
            #expect(item.serverRecord == server && item.clientRecord == edited && item.ancestorRecord == fetched)
        }
    }

    @Test("a new record saved over an existing name has no ancestor, and the message says why", arguments: StoreKind.allCases)
    func noTagNoAncestor(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let server = try await database.save(makeRecord("n1", ["a": .int64(1)]))
            let fresh = makeRecord("n1", ["a": .int64(2)])
            let error = try #require(await expectError(.serverRecordChanged) { _ = try await database.save(fresh) })
            #expect(error.serverRecord == server)
            #expect(error.clientRecord == fresh)
            #expect(error.ancestorRecord == nil)
            #expect(error.message.contains("no change tag"))
        }
    }

    @Test("a tag whose version is not in the log gives a nil ancestor, and the message says so", arguments: StoreKind.allCases)
    func ancestorNotInLog(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let first = try await database.save(makeRecord("n1", ["a": .int64(1)]))
            let other = try await database.save(makeRecord("n2", ["a": .int64(1)]))
            var edited = try await database.record(for: first.recordID)
            edited["a"] = .int64(2)
            _ = try await database.save(edited)
            // Tags that name no version of n1 the log holds: n2's save, and an offset past the end.
            let firstTag = try #require(first.recordChangeTag)
            let incarnation = try #require(ChangeTag.parse(firstTag)).incarnation
            for tag in [try #require(other.recordChangeTag), ChangeTag.make(incarnation: incarnation, offset: 999)] {
                var stale = first
                stale.recordChangeTag = tag
                stale["a"] = .int64(3)
                let error = try #require(await expectError(.serverRecordChanged) { _ = try await database.save(stale) })
                #expect(error.ancestorRecord == nil)
                #expect(error.clientRecord == stale)
                #expect(error.message.contains("no longer in the log"))
            }
        }
    }

    @Test("a tag from a deleted incarnation of the zone has no ancestor in the new one", arguments: StoreKind.allCases)
    func ancestorOfDeletedIncarnation(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "Z")
            try await database.createZone(zone)
            var old = try await database.save(makeRecord("r", zone: zone, ["v": .string("old")]))
            try await database.deleteZone(zone)
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("r", zone: zone, ["v": .string("new")]))
            old["v"] = .string("stale")
            let error = try #require(await expectError(.serverRecordChanged) { _ = try await database.save(old) })
            #expect(error.ancestorRecord == nil)
            #expect(error.message.contains("earlier incarnation"))
        }
    }

    @Test(".allKeys writes every key the record has, changed or not, whatever the server's tag", arguments: StoreKind.allCases)
    func allKeysSendsEveryKey(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (fetched, _) = try await fetchedThenChangedTwice(database)
            var edited = fetched
            edited["a"] = .int64(9)
            let changed = try await database.save(edited, savePolicy: .changedKeys)
            #expect(changed["a"] == .int64(9) && changed["b"] == .int64(2) && changed["c"] == .int64(3), ".changedKeys sends a only")

            let all = try await database.save(edited, savePolicy: .allKeys)
            #expect(all["a"] == .int64(9) && all["b"] == .int64(1) && all["c"] == .int64(1), ".allKeys sends a, b and c")
            #expect(try await database.record(for: edited.recordID) == all)
        }
    }

    @Test(".allKeys after a partial fetch (desiredKeys) keeps the keys only the server has", arguments: StoreKind.allCases)
    func allKeysKeepsServerOnlyKeys(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("n1", ["title": .string("t"), "body": .string("a long body")]))
            var partial = try await database.record(for: saved.recordID, desiredKeys: ["title"])
            #expect(partial.allKeys() == ["title"])
            partial["title"] = .string("t2")
            let result = try await database.save(partial, savePolicy: .allKeys)
            #expect(result["title"] == .string("t2"))
            #expect(result["body"] == .string("a long body"))
            #expect(try await database.record(for: saved.recordID)["body"] == .string("a long body"))
        }
    }

    @Test("no policy removes a key another client added; setting a key to nil removes it under every policy", arguments: StoreKind.allCases)
    func keysAreRemovedOnlyExplicitly(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            for (index, policy) in [SavePolicy.ifServerRecordUnchanged, .changedKeys, .allKeys].enumerated() {
                let id = "r\(index)"
                let mine = try await database.save(makeRecord(id, ["a": .int64(1), "gone": .int64(1)]))
                var theirs = try await database.record(for: mine.recordID)
                theirs["added"] = .string("by another client")
                theirs = try await database.save(theirs)
                // The default policy needs the current tag; the others write over a stale one.
                var edit = policy == .ifServerRecordUnchanged ? theirs : mine
                edit["a"] = .int64(2)
                edit["gone"] = nil
                let result = try await database.save(edit, savePolicy: policy)
                #expect(result["added"] == .string("by another client"), "\(policy) keeps the key another client added")
                #expect(result["gone"] == nil, "\(policy) removes the key set to nil")
                #expect(result["a"] == .int64(2))
            }
        }
    }
}
