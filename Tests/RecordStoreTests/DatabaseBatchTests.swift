import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// modifyRecords: atomic and non-atomic batches, limits, deletes and cascades.
@Suite(.everyTuning) struct DatabaseBatchTests {
    /// A store holding `keep` and `stale`; returns an edit of `keep` (current tag, v = 10), an
    /// edit of `stale` made from a copy that another save has since made stale (v = 3), and a new
    /// record.
    private func prepared(_ database: Database) async throws -> (keep: Record, edit: Record, stale: Record, new: Record) {
        let keep = try await database.save(makeRecord("keep", ["v": .int64(1)]))
        var stale = try await database.save(makeRecord("stale", ["v": .int64(1)]))
        var update = stale
        update["v"] = .int64(2)
        _ = try await database.save(update)
        stale["v"] = .int64(3)
        var edit = keep
        edit["v"] = .int64(10)
        return (keep, edit, stale, makeRecord("new", ["v": .int64(1)]))
    }

    @Test("atomic: one bad item → partialFailure, innocents batchRequestFailed, the log byte-for-byte unchanged", arguments: StoreKind.allCases)
    func atomicFailureWritesNothing(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (keep, edit, stale, new) = try await prepared(database)
            let missing = RecordID(recordName: "missing")
            let before = try database.logSnapshot()
            let endBefore = try database.endOffset(.default)

            let error = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [edit, stale, new], deleting: [missing, RecordID(recordName: "also-missing")])
            }
            let errors = try #require(error?.partialErrors)
            #expect(Set(errors.keys) == [edit.recordID, stale.recordID, new.recordID, missing, RecordID(recordName: "also-missing")])
            #expect(errors[stale.recordID]?.code == .serverRecordChanged)
            #expect(errors[stale.recordID]?.serverRecord?["v"] == .int64(2))
            #expect(errors[missing]?.code == .unknownItem)
            #expect(errors[RecordID(recordName: "also-missing")]?.code == .unknownItem)
            #expect(errors[edit.recordID]?.code == .batchRequestFailed)
            #expect(errors[new.recordID]?.code == .batchRequestFailed)
            #expect(errors[new.recordID]?.recordID == new.recordID)

            #expect(try database.logSnapshot() == before, "segment files byte-for-byte unchanged")
            #expect(try database.endOffset(.default) == endBefore)
            #expect(try await database.record(for: keep.recordID) == keep)
            await expectError(.unknownItem) { _ = try await database.record(for: new.recordID) }
        }
    }

    @Test("atomic across zones: a failure in one zone writes nothing in the others either", arguments: StoreKind.allCases)
    func atomicAcrossZones(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zoneA = ZoneID(zoneName: "A")
            let zoneB = ZoneID(zoneName: "B")
            try await database.createZone(zoneA)
            try await database.createZone(zoneB)
            _ = try await database.save(makeRecord("exists", zone: zoneB))
            let before = try database.logSnapshot()
            let good = makeRecord("good", zone: zoneA)
            let conflict = makeRecord("exists", zone: zoneB)
            let error = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [good, conflict], deleting: [])
            }
            #expect(error?.partialErrors[good.recordID]?.code == .batchRequestFailed)
            #expect(error?.partialErrors[conflict.recordID]?.code == .serverRecordChanged)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("non-atomic: each item succeeds or fails alone; the successes are one commit", arguments: StoreKind.allCases)
    func nonAtomic(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let (_, edit, stale, new) = try await prepared(database)
            let invalid = makeRecord("invalid", ["_v": .int64(1)])
            let missing = RecordID(recordName: "missing")
            let otherZone = makeRecord("x", zone: ZoneID(zoneName: "NoSuchZone"))
            let endBefore = try database.endOffset(.default)

            let result = try await database.modifyRecords(
                saving: [edit, stale, new, invalid, otherZone], deleting: [missing], atomically: false)
            #expect(result.saveResults.count == 5)
            #expect(result.deleteResults.count == 1)
            #expect(try result.saveResults[edit.recordID]?.get()["v"] == .int64(10))
            #expect(try result.saveResults[new.recordID]?.get()["v"] == .int64(1))
            #expect(failure(result.saveResults[stale.recordID])?.code == .serverRecordChanged)
            #expect(failure(result.saveResults[invalid.recordID])?.code == .invalidArguments)
            #expect(failure(result.saveResults[otherZone.recordID])?.code == .zoneNotFound)
            #expect(failure(result.deleteResults[missing])?.code == .unknownItem)

            #expect(try database.endOffset(.default) == endBefore + 2)
            #expect(try database.batchCount(.default, from: endBefore) == 1)
            #expect(try await database.record(for: edit.recordID)["v"] == .int64(10))
            #expect(try await database.record(for: stale.recordID)["v"] == .int64(2))
        }
    }

    @Test("a request's saves and deletes in one zone are one batch, one event per item", arguments: StoreKind.allCases)
    func oneBatchPerZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let old = try await database.save(makeRecord("old"))
            let start = try database.endOffset(.default)
            let saves = (0..<5).map { makeRecord("r\($0)") }
            let result = try await database.modifyRecords(saving: saves, deleting: [old.recordID])
            #expect(result.saveResults.count == 5)
            #expect(result.deleteResults.count == 1)
            for save in saves { #expect(try result.saveResults[save.recordID]?.get() != nil) }
            #expect(try result.deleteResults[old.recordID]?.get() != nil)
            #expect(try database.endOffset(.default) == start + 6)
            #expect(try database.batchCount(.default, from: start) == 1)
        }
    }

    @Test("400 items are accepted; 401 fail with limitExceeded and write nothing", arguments: StoreKind.allCases)
    func itemLimit(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let start = try database.endOffset(.default)
            let first = (0..<200).map { makeRecord("a\($0)") }
            _ = try await database.modifyRecords(saving: first, deleting: [])
            let middle = try database.endOffset(.default)
            #expect(middle == start + 200)

            let saves = (0..<200).map { makeRecord("b\($0)") }
            let before = try database.logSnapshot()
            let error = await expectError(.limitExceeded) {
                _ = try await database.modifyRecords(saving: saves, deleting: first.map(\.recordID) + [RecordID(recordName: "a0x")])
            }
            #expect(error?.message.contains("401") == true)
            #expect(try database.logSnapshot() == before)

            let result = try await database.modifyRecords(saving: saves, deleting: first.map(\.recordID))
            #expect(result.saveResults.count == 200 && result.deleteResults.count == 200)
            #expect(try database.endOffset(.default) == middle + 400)
            #expect(try database.batchCount(.default, from: middle) == 1)
        }
    }

    @Test("the same record ID twice in one request is invalidArguments, and nothing is written", arguments: StoreKind.allCases)
    func duplicateIDs(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let existing = try await database.save(makeRecord("e"))
            let before = try database.logSnapshot()
            await expectError(.invalidArguments, "saved twice") {
                _ = try await database.modifyRecords(saving: [makeRecord("x"), makeRecord("y"), makeRecord("x")], deleting: [])
            }
            await expectError(.invalidArguments, "saved and deleted") {
                _ = try await database.modifyRecords(saving: [existing], deleting: [existing.recordID])
            }
            await expectError(.invalidArguments, "deleted twice") {
                _ = try await database.modifyRecords(saving: [], deleting: [existing.recordID, existing.recordID])
            }
            await expectError(.invalidArguments, "non-atomic too") {
                _ = try await database.modifyRecords(saving: [makeRecord("x"), makeRecord("x")], deleting: [], atomically: false)
            }
            #expect(try database.logSnapshot() == before)
            // The same name in two zones is two records.
            let zone = ZoneID(zoneName: "Other")
            try await database.createZone(zone)
            let result = try await database.modifyRecords(saving: [makeRecord("x"), makeRecord("x", zone: zone)], deleting: [])
            #expect(result.saveResults.count == 2)
            let afterTwoZones = try database.logSnapshot()
            await expectError(.invalidArguments, "twice in one zone, with another zone between") {
                _ = try await database.modifyRecords(
                    saving: [makeRecord("p"), makeRecord("q", zone: zone), makeRecord("p")], deleting: [])
            }
            #expect(try database.logSnapshot() == afterTwoZones)
        }
    }

    @Test("an empty request succeeds and writes nothing", arguments: StoreKind.allCases)
    func emptyRequest(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let before = try database.logSnapshot()
            let result = try await database.modifyRecords(saving: [], deleting: [])
            #expect(result.saveResults.isEmpty && result.deleteResults.isEmpty)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("deleting a missing record is unknownItem; deleting a record twice too", arguments: StoreKind.allCases)
    func deleteMissing(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let missing = RecordID(recordName: "missing")
            let before = try database.logSnapshot()
            let error = await expectError(.unknownItem) { try await database.delete(missing) }
            #expect(error?.recordID == missing)
            #expect(try database.logSnapshot() == before)

            let saved = try await database.save(makeRecord("n1"))
            try await database.delete(saved.recordID)
            await expectError(.unknownItem) { _ = try await database.record(for: saved.recordID) }
            await expectError(.unknownItem) { try await database.delete(saved.recordID) }
            await expectError(.zoneNotFound) { try await database.delete(RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Nope"))) }
        }
    }

    @Test(".deleteSelf cascades transitively, in the same commit; a .none reference does not cascade", arguments: StoreKind.allCases)
    func cascade(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            // folder ← note (deleteSelf) ← attachment (deleteSelf, in a list); note ← comment
            // (deleteSelf) ; folder ← bookmark (.none) ; unrelated.
            _ = try await database.modifyRecords(
                saving: [
                    makeRecord("folder", type: "Folder"),
                    makeRecord("note", type: "Note", ["folder": ref("folder")]),
                    makeRecord("attachment", type: "Attachment", ["owners": .list([ref("note")])]),
                    makeRecord("comment", type: "Comment", ["on": ref("note"), "folder": ref("folder", .none)]),
                    makeRecord("bookmark", type: "Bookmark", ["folder": ref("folder", .none)]),
                    makeRecord("unrelated", type: "Note"),
                ], deleting: [])
            let token = try await database.fetchZoneChanges(in: .default, since: nil).changeToken
            let start = try database.endOffset(.default)

            let result = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "folder")])
            #expect(result.deleteResults.count == 1, "results answer only the items asked for")
            #expect(try result.deleteResults[RecordID(recordName: "folder")]?.get() != nil)
            #expect(try database.endOffset(.default) == start + 4, "folder, note, attachment, comment")
            #expect(try database.batchCount(.default, from: start) == 1, "one commit")

            let remaining = try await database.records(for: ["folder", "note", "attachment", "comment", "bookmark", "unrelated"].map { RecordID(recordName: $0) })
            for name in ["folder", "note", "attachment", "comment"] {
                #expect(failure(remaining[RecordID(recordName: name)])?.code == .unknownItem, "\(name) deleted")
            }
            #expect(try remaining[RecordID(recordName: "bookmark")]?.get()["folder"] == ref("folder", .none), "the .none reference dangles")
            #expect(try remaining[RecordID(recordName: "unrelated")]?.get() != nil)

            let changes = try await database.fetchZoneChanges(in: .default, since: token)
            #expect(changes.changedRecords.isEmpty)
            #expect(Set(changes.deletions) == [
                .init(recordID: RecordID(recordName: "folder"), recordType: "Folder"),
                .init(recordID: RecordID(recordName: "note"), recordType: "Note"),
                .init(recordID: RecordID(recordName: "attachment"), recordType: "Attachment"),
                .init(recordID: RecordID(recordName: "comment"), recordType: "Comment"),
            ])
        }
    }

    @Test("a cycle of .deleteSelf references is deleted whole; a referrer saved in the same request without the reference survives", arguments: StoreKind.allCases)
    func cascadeCycleAndRescue(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.modifyRecords(
                saving: [
                    makeRecord("a", ["next": ref("b")]),
                    makeRecord("b", ["next": ref("c")]),
                    makeRecord("c", ["next": ref("a")]),
                ], deleting: [])
            let start = try database.endOffset(.default)
            try await database.delete(RecordID(recordName: "b"))
            #expect(try database.endOffset(.default) == start + 3)
            #expect(try await database.records(for: ["a", "b", "c"].map { RecordID(recordName: $0) }).values.allSatisfy {
                if case .failure(let error) = $0 { error.code == .unknownItem } else { false }
            })

            // x ← y (deleteSelf): delete x while saving y without its reference: y survives.
            _ = try await database.modifyRecords(saving: [makeRecord("x"), makeRecord("y", ["parent": ref("x")])], deleting: [])
            var y = try await database.record(for: RecordID(recordName: "y"))
            y["parent"] = nil
            let result = try await database.modifyRecords(saving: [y], deleting: [RecordID(recordName: "x")])
            #expect(try result.saveResults[y.recordID]?.get()["parent"] == nil)
            #expect(try await database.record(for: y.recordID)["parent"] == nil)

            // Saving a referrer that keeps the reference while its target is deleted: referenceViolation.
            _ = try await database.modifyRecords(saving: [makeRecord("p"), makeRecord("q", ["parent": ref("p")])], deleting: [])
            var q = try await database.record(for: RecordID(recordName: "q"))
            q["other"] = .int64(1)
            let before = try database.logSnapshot()
            let error = await expectError(.partialFailure) {
                _ = try await database.modifyRecords(saving: [q], deleting: [RecordID(recordName: "p")])
            }
            #expect(error?.partialErrors[q.recordID]?.code == .referenceViolation)
            #expect(error?.partialErrors[RecordID(recordName: "p")]?.code == .batchRequestFailed)
            #expect(try database.logSnapshot() == before)
        }
    }

    @Test("an updated record that drops its .deleteSelf reference is no longer cascaded", arguments: StoreKind.allCases)
    func cascadeFollowsLatestVersion(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.modifyRecords(saving: [makeRecord("t"), makeRecord("r", ["parent": ref("t")])], deleting: [])
            var r = try await database.record(for: RecordID(recordName: "r"))
            r["parent"] = ref("t", .none)
            _ = try await database.save(r)
            try await database.delete(RecordID(recordName: "t"))
            #expect(try await database.record(for: r.recordID)["parent"] == ref("t", .none))
        }
    }

    @Test("a large batch's save results hold every record as stored, read once or many times; a copy edited apart keeps its own", arguments: StoreKind.allCases)
    func largeBatchResults(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let stale = try await database.save(makeRecord("stale", ["v": .int64(1)]))
            _ = try await database.save(stale)
            let records = (0..<300).map { makeRecord("r\($0)", ["v": .int64(Int64($0))]) } + [stale]
            let result = try await database.modifyRecords(saving: records, deleting: [], atomically: false)
            #expect(result.saveResults.count == 301)
            #expect(failure(result.saveResults[stale.recordID])?.code == .serverRecordChanged)
            for index in [0, 150, 299] {
                let saved = try #require(try result.saveResults[RecordID(recordName: "r\(index)")]?.get())
                #expect(saved == (try await database.record(for: saved.recordID)))
                #expect(saved.recordChangeTag != nil && saved["v"] == .int64(Int64(index)))
            }
            var edited = result
            edited.saveResults[RecordID(recordName: "r7")] = .failure(RecordStoreError(.internalError, "edited"))
            edited.saveResults[RecordID(recordName: "extra")] = .success(makeRecord("extra"))
            #expect(edited.saveResults.count == 302)
            #expect(failure(edited.saveResults[RecordID(recordName: "r7")])?.message == "edited")
            #expect(result.saveResults.count == 301)
            #expect((try? result.saveResults[RecordID(recordName: "r7")]?.get())?["v"] == .int64(7))
            edited.saveResults = [:]
            #expect(edited.saveResults.isEmpty && result.saveResults.count == 301)
        }
    }
}
