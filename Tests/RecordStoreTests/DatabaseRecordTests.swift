import Foundation
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// Saving and fetching single records: server metadata, desiredKeys, missing items, validation.
@Suite(.everyTuning) struct DatabaseRecordTests {
    @Test("a save returns the record with server dates and a change tag, and a fetch returns the same record", arguments: StoreKind.allCases)
    func saveReturnsMetadata(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var record = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
            record["title"] = .string("Groceries")
            record["count"] = .int64(3)
            record["tags"] = .list([.string("a"), .string("b")])
            #expect(record.changedKeys() == ["count", "tags", "title"])

            let saved = try await database.save(record)
            #expect(saved.recordID == record.recordID)
            #expect(saved.recordType == "Note")
            #expect(saved["title"] == .string("Groceries"))
            #expect(saved["count"] == .int64(3))
            #expect(saved["tags"] == .list([.string("a"), .string("b")]))
            let created = try #require(saved.creationDate)
            #expect(saved.modificationDate == created, "a new record's modification date is its creation date")
            let tag = try #require(saved.recordChangeTag)
            #expect(!tag.isEmpty)
            #expect(saved.changedKeys() == [], "a record returned by the store has no local changes")

            let fetched = try await database.record(for: record.recordID)
            #expect(fetched == saved)
            #expect(fetched.recordChangeTag == tag)
            #expect(fetched.changedKeys() == [])
        }
    }

    @Test("after a save, the returned record's changed keys are only the edits made to it since; the caller's copy keeps its own", arguments: StoreKind.allCases)
    func changedKeysAfterSave(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let record = makeRecord("n1", ["title": .string("a"), "count": .int64(1), "old": .bool(true)])
            var saved = try await database.save(record)
            #expect(saved.changedKeys() == [])
            #expect(record.changedKeys() == ["count", "old", "title"], "the caller's record is a value of its own")
            saved["title"] = .string("b")
            #expect(saved.changedKeys() == ["title"])
            saved["old"] = nil
            saved["new"] = .int64(2)
            #expect(saved.changedKeys() == ["new", "old", "title"])
            let again = try await database.save(saved, savePolicy: .changedKeys)
            #expect(again.changedKeys() == [])
            #expect(again.allKeys() == ["count", "new", "title"])
            var edited = again
            edited["count"] = .int64(5)
            #expect(edited.changedKeys() == ["count"], "keys saved before are not changed again")
        }
    }

    @Test("the dates a save returns are the dates stored: a fetch returns the same Date values", arguments: StoreKind.allCases)
    func savedDatesAreStoredDates(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("n1"))
            let fetched = try await database.record(for: saved.recordID)
            #expect(fetched == saved, "Record's == compares dates by millisecond")
            #expect(saved.creationDate == fetched.creationDate)
            #expect(saved.modificationDate == fetched.modificationDate)
            
        }
    }

    @Test("every field kind survives a save and a fetch", arguments: StoreKind.allCases)
    func everyKindRoundTrips(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(Sample.zone)
            // The sample's reference is .deleteSelf to folder-1, which must exist.
            let folder = try await database.save(makeRecord("folder-1", zone: Sample.zone, type: "Folder"))
            let record = Sample.everyKind().stored(created: nil, modified: nil, tag: nil)
            let saved = try await database.save(record)
            for key in record.allKeys() { #expect(saved[key] == record[key], "field \(key)") }
            #expect(saved.allKeys() == record.allKeys())
            #expect(try await database.record(for: record.recordID) == saved)
            #expect(try await database.record(for: folder.recordID) == folder)
        }
    }

    @Test("an update keeps the creation date, moves the modification date on and changes the tag", arguments: StoreKind.allCases)
    func updateMetadata(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let first = try await database.save(makeRecord("n1", ["v": .int64(1)]))
            var edit = first
            edit["v"] = .int64(2)
            let second = try await database.save(edit)
            #expect(second.creationDate == first.creationDate)
            #expect(try #require(second.modificationDate) >= #require(first.modificationDate))
            #expect(second.recordChangeTag != first.recordChangeTag)
            #expect(second["v"] == .int64(2))
            #expect(try await database.record(for: edit.recordID) == second)

            // A third version: every tag so far is distinct.
            var again = second
            again["v"] = .int64(3)
            let third = try await database.save(again)
            #expect(Set([first, second, third].compactMap(\.recordChangeTag)).count == 3)
        }
    }

    @Test("records(for:) answers each ID: the record, unknownItem, or zoneNotFound", arguments: StoreKind.allCases)
    func fetchManyWithMissing(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let a = try await database.save(makeRecord("a"))
            let b = try await database.save(makeRecord("b"))
            let missing = RecordID(recordName: "missing")
            let elsewhere = RecordID(recordName: "a", zoneID: ZoneID(zoneName: "NoSuchZone"))
            let results = try await database.records(for: [a.recordID, missing, b.recordID, elsewhere])
            #expect(results.count == 4)
            #expect(try results[a.recordID]?.get() == a)
            #expect(try results[b.recordID]?.get() == b)
            let unknown = failure(results[missing])
            #expect(unknown?.code == .unknownItem)
            #expect(unknown?.recordID == missing)
            #expect(failure(results[elsewhere])?.code == .zoneNotFound)

            await expectError(.unknownItem) { _ = try await database.record(for: missing) }
            await expectError(.zoneNotFound) { _ = try await database.record(for: elsewhere) }
            #expect(try await database.records(for: []).isEmpty)
        }
    }

    @Test("desiredKeys: nil returns every field, [] only system fields, a list only those keys", arguments: StoreKind.allCases)
    func desiredKeys(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("n1", ["a": .int64(1), "b": .string("two"), "c": .bool(true)]))
            let id = saved.recordID

            let all = try await database.record(for: id, desiredKeys: nil)
            #expect(all == saved)
            #expect(all.allKeys() == ["a", "b", "c"])

            let none = try await database.record(for: id, desiredKeys: [])
            #expect(none.allKeys() == [])
            #expect(none.recordType == "Note")
            #expect(none.recordChangeTag == saved.recordChangeTag)
            #expect(MillisecondDate.same(none.creationDate, saved.creationDate))
            #expect(MillisecondDate.same(none.modificationDate, saved.modificationDate))
            #expect(none.changedKeys() == [], "dropping unwanted keys is not a local change")

            let some = try await database.record(for: id, desiredKeys: ["c", "a", "notAField"])
            #expect(some.allKeys() == ["a", "c"])
            #expect(some["a"] == .int64(1))
            #expect(some["c"] == .bool(true))
            #expect(some.changedKeys() == [])
            #expect(some.recordChangeTag == saved.recordChangeTag)

            let many = try await database.records(for: [id], desiredKeys: ["b"])
            #expect(try many[id]?.get().allKeys() == ["b"])
        }
    }

    @Test(
        "invalid names, types and keys fail with invalidArguments and write nothing",
        arguments: [
            ("record name with a leading underscore", makeRecord("_reserved")),
            ("empty record name", makeRecord("")),
            ("record name of 256 characters", makeRecord(String(repeating: "n", count: 256))),
            ("non-ASCII record name", makeRecord("café")),
            ("record type starting with a digit", makeRecord("n1", type: "1Note")),
            ("field key with a leading underscore", makeRecord("n1", ["_key": .int64(1)])),
            ("field key starting with a digit", makeRecord("n1", ["1key": .int64(1)])),
            ("field key with a dash", makeRecord("n1", ["a-b": .int64(1)])),
            ("field key of 256 characters", makeRecord("n1", [String(repeating: "k", count: 256): .int64(1)])),
            ("list mixing kinds", makeRecord("n1", ["l": .list([.int64(1), .string("x")])])),
            ("reference to another zone", makeRecord("n1", ["r": ref("x", zone: ZoneID(zoneName: "Other"), .none)])),
        ])
    func invalidRecords(_ label: String, _ record: Record) async throws {
        try await withTemporaryDatabase { database in
            let innocent = makeRecord("innocent")
            let before = try database.logSnapshot()
            let error = await expectError(.invalidArguments, "\(label)") { _ = try await database.save(record) }
            #expect(error?.recordID == record.recordID)

            // In an atomic batch: partialFailure, the bad item's own error, the other batchRequestFailed.
            let batch = await expectError(.partialFailure, "\(label)") {
                _ = try await database.modifyRecords(saving: [innocent, record], deleting: [])
            }
            #expect(batch?.partialErrors[record.recordID]?.code == .invalidArguments)
            #expect(batch?.partialErrors[innocent.recordID]?.code == .batchRequestFailed)
            #expect(try database.logSnapshot() == before, "nothing written")
            await expectError(.unknownItem) { _ = try await database.record(for: innocent.recordID) }
        }
    }

    @Test("a .deleteSelf reference must point at an existing record or one saved in the same request", arguments: StoreKind.allCases)
    func referenceTargets(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let before = try database.endOffset(.default)
            let dangling = makeRecord("child", ["parent": ref("nobody")])
            let error = await expectError(.referenceViolation) { _ = try await database.save(dangling) }
            #expect(error?.recordID == dangling.recordID)
            #expect(try database.endOffset(.default) == before)

            // Target saved in the same request: fine, in either order.
            let parent = makeRecord("parent")
            let child = makeRecord("child", ["parent": ref("parent")])
            let result = try await database.modifyRecords(saving: [child, parent], deleting: [])
            #expect(try result.saveResults[child.recordID]?.get()["parent"] == ref("parent"))
            #expect(try database.endOffset(.default) == before + 2)

            // A reference inside a list counts too.
            let listChild = makeRecord("listChild", ["parents": .list([ref("parent"), ref("ghost")])])
            await expectError(.referenceViolation) { _ = try await database.save(listChild) }
        }
    }

    @Test("a .none reference may dangle: it is not checked (as documented on Reference.Action.none)", arguments: StoreKind.allCases)
    func noneReferenceMayDangle(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let saved = try await database.save(makeRecord("child", ["parent": ref("nobody", .none)]))
            #expect(saved["parent"] == ref("nobody", .none))
        }
    }

    @Test("a save whose .deleteSelf target fails in the same request fails with referenceViolation", arguments: StoreKind.allCases)
    func referenceToFailingTarget(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let invalidTarget = makeRecord("bad", ["_x": .int64(1)])
            let orphan = makeRecord("orphan", ["p": ref("bad")])
            let result = try await database.modifyRecords(saving: [invalidTarget, orphan], deleting: [], atomically: false)
            #expect(failure(result.saveResults[invalidTarget.recordID])?.code == .invalidArguments)
            #expect(failure(result.saveResults[orphan.recordID])?.code == .referenceViolation)
            await expectError(.unknownItem) { _ = try await database.record(for: orphan.recordID) }

            // Atomically: each keeps its own error (neither is innocent).
            let atomic = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [invalidTarget, orphan], deleting: [])
            }
            #expect(atomic?.partialErrors[invalidTarget.recordID]?.code == .invalidArguments)
            #expect(atomic?.partialErrors[orphan.recordID]?.code == .referenceViolation)
        }
    }

    @Test("saving a fetched record that was deleted since fails with unknownItem (CloudKit's answer)", arguments: StoreKind.allCases)
    func saveDeletedRecordWithTag(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var saved = try await database.save(makeRecord("n1", ["v": .int64(1)]))
            try await database.delete(saved.recordID)
            saved["v"] = .int64(2)
            let before = try database.endOffset(.default)
            await expectError(.unknownItem) { _ = try await database.save(saved) }
            #expect(try database.endOffset(.default) == before)
            // Without the tag (a new record of that name) it is recreated, as a new record.
            let fresh = try await database.save(makeRecord("n1", ["v": .int64(3)]))
            #expect(fresh.recordChangeTag != saved.recordChangeTag)
        }
    }

    @Test("a record over 1 MB is refused with limitExceeded and nothing is written", arguments: StoreKind.allCases)
    func oversizedRecordAlone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let big = makeRecord("big", ["data": .bytes([UInt8](repeating: 7, count: RecordLimits.maximumEncodedRecordSize))])
            let before = try database.logSnapshot()
            let error = await expectError(.limitExceeded) { _ = try await database.save(big) }
            #expect(error?.recordID == big.recordID)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("an oversized record in an atomic batch: partialFailure with limitExceeded for it and batchRequestFailed for the rest", arguments: StoreKind.allCases)
    func oversizedRecordInAtomicBatch(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let big = makeRecord("big", ["data": .bytes([UInt8](repeating: 7, count: RecordLimits.maximumEncodedRecordSize))])
            let small = makeRecord("small")
            let before = try database.logSnapshot()
            let error = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [small, big], deleting: [])
            }
            #expect(error?.partialErrors[big.recordID]?.code == .limitExceeded)
            #expect(error?.partialErrors[small.recordID]?.code == .batchRequestFailed)
            
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("an oversized record in a non-atomic batch fails alone; the other items are saved", arguments: StoreKind.allCases)
    func oversizedRecordInNonAtomicBatch(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let big = makeRecord("big", ["data": .bytes([UInt8](repeating: 7, count: RecordLimits.maximumEncodedRecordSize))])
            let small = makeRecord("small")
            let result = try await database.modifyRecords(saving: [small, big], deleting: [], atomically: false)
            #expect(try result.saveResults[small.recordID]?.get() != nil)
            #expect(failure(result.saveResults[big.recordID])?.code == .limitExceeded)
            
        }
    }

    @Test("a request whose batch exceeds the log's 64 MB batch limit fails with a RecordStoreError, not a LogError", arguments: StoreKind.allCases)
    func requestLargerThanALogBatch(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            // 70 incompressible records of ~1 MB: each valid alone, 70 MB together.
            var generator = SeededGenerator(seed: 7)
            var records: [Record] = []
            for index in 0..<70 {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(1_000_000)
                for _ in 0..<125_000 { withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) } }
                records.append(makeRecord("blob\(index)", ["data": .bytes(bytes)]))
            }
            let before = try database.logSnapshot()
            await expectError(.limitExceeded) {
                _ = try await database.modifyRecords(saving: records, deleting: [])
            }
            
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("a closed database refuses every call")
    func closedDatabase() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            try database.close()
            await expectError(.internalError) { _ = try await database.save(makeRecord("n1")) }
            await expectError(.internalError) { _ = try await database.record(for: RecordID(recordName: "n1")) }
            await expectError(.internalError) { _ = try await database.allZones() }
            await expectError(.internalError) { _ = try await database.fetchZoneChanges(in: .default, since: nil) }
        }
    }
}
