import Foundation
import RecordClient
import RecordStore
import Testing

/// Conflicts and partial failures cross the wire with every detail a merge needs.
@Suite struct ServerConflictTests {
    let zone = ZoneID(zoneName: "Notes")

    @Test(
        "a stale save answers serverRecordChanged with the server's, the client's and the ancestor record, as a local database does",
        arguments: ServerStorage.allCases)
    func conflictRoundTrip(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        var original = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone))
        original["title"] = .string("Groceries")
        original["count"] = .int64(1)
        let ancestor = try #require(
            try await remote.modifyRecords(saving: [original], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
                .saveResults[original.recordID]?.get())
        var theirs = ancestor
        theirs["count"] = .int64(2)
        let server1 = try #require(
            try await remote.modifyRecords(saving: [theirs], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
                .saveResults[original.recordID]?.get())
        var mine = ancestor
        mine["title"] = .string("Groceries!")

        // Atomic: partialFailure, whose item error carries the three records.
        do {
            _ = try await remote.modifyRecords(saving: [mine], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
            Issue.record("a stale save must fail")
        } catch let error as RecordStoreError {
            #expect(error.code == .partialFailure)
            let item = try #require(error.partialErrors[mine.recordID])
            #expect(item.code == .serverRecordChanged)
            #expect(item.serverRecord == server1)
            #expect(item.clientRecord == mine)
            #expect(item.ancestorRecord == ancestor)
            #expect(item.clientRecord?.changedKeys() == ["title"])
        }
        // Non-atomic: the item's own error.
        let result = try await remote.modifyRecords(saving: [mine], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false, clientChangeTokenData: nil)
        guard case .failure(let error)? = result.saveResults[mine.recordID] else {
            Issue.record("a stale save must fail")
            return
        }
        #expect(error.code == .serverRecordChanged)
        #expect(error.serverRecord == server1 && error.ancestorRecord == ancestor && error.clientRecord == mine)
        #expect(error.message.isEmpty == false)

        // Nothing was written: the server still has their version.
        #expect(try await remote.records(for: [mine.recordID])[mine.recordID]?.get() == server1)
        try await server.stopAndRemove()
    }

    @Test("an atomic batch with one bad item writes nothing: the others are batchRequestFailed", arguments: ServerStorage.allCases)
    func atomicBatch(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        let good = Record(recordType: "Note", recordID: RecordID(recordName: "good", zoneID: zone))
        var bad = Record(recordType: "Note", recordID: RecordID(recordName: "bad", zoneID: zone))
        bad["ref"] = .reference(Reference(recordID: RecordID(recordName: "nowhere", zoneID: zone), action: .deleteSelf))
        do {
            _ = try await remote.modifyRecords(saving: [good, bad], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
            Issue.record("a dangling reference must fail the batch")
        } catch let error as RecordStoreError {
            #expect(error.code == .partialFailure)
            #expect(error.partialErrors[bad.recordID]?.code == .referenceViolation)
            #expect(error.partialErrors[good.recordID]?.code == .batchRequestFailed)
        }
        let found = try await remote.records(for: [good.recordID])
        if case .failure(let error)? = found[good.recordID] { #expect(error.code == .unknownItem) } else { Issue.record("nothing may be written") }
        try await server.stopAndRemove()
    }
}
