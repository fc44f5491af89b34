import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// CloudKit's `clientChangeTokenData`, from its documentation: a modify request may carry a
/// client token "to indicate which version of the record you most recently modified"; compare it
/// with the token the next zone-change fetch returns to know whether the server received the
/// device's latest request. Here, a request that repeats the token of a zone's latest commit is
/// a retry: answered with that commit's results, nothing written twice.
@Suite(.everyTuning) struct ClientChangeTokenTests {
    private let zone = ZoneID(zoneName: "Notes")
    private func token(_ text: String) -> Data { Data(text.utf8) }

    private func records(_ names: [String], _ value: Int64) -> [Record] {
        names.map { makeRecord($0, zone: zone, ["v": .int64(value)]) }
    }

    @Test("zone-change fetches report the zone's latest client token, whichever page, until a newer one", arguments: StoreKind.allCases)
    func echoed(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            #expect(try await database.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == nil)
            _ = try await database.modifyRecords(saving: records(["a", "b"], 1), deleting: [], clientChangeTokenData: token("t1"))
            let first = try await database.fetchZoneChanges(in: zone, since: nil, resultsLimit: 1)
            #expect(first.moreComing && first.clientChangeTokenData == token("t1"))
            // A commit without a token leaves the latest token as it was.
            _ = try await database.save(makeRecord("c", zone: zone))
            let later = try await database.fetchZoneChanges(in: zone, since: first.changeToken)
            #expect(later.clientChangeTokenData == token("t1"))
            let streamed = try await database.fetchZoneChanges(in: zone, since: later.changeToken, recordChanged: { _ in }, recordDeleted: { _ in })
            #expect(streamed.clientChangeTokenData == token("t1"))
            _ = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "a", zoneID: zone)], clientChangeTokenData: token("t2"))
            #expect(try await database.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == token("t2"))
            #expect(try await database.fetchZoneChanges(in: .default, since: nil).clientChangeTokenData == nil, "per zone")
        }
    }

    @Test("a request repeating the latest commit's client token writes nothing and answers that commit's results", arguments: StoreKind.allCases)
    func retryWritesNothing(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("gone", zone: zone))
            let saving = records(["a", "b"], 1)
            let deleting = [RecordID(recordName: "gone", zoneID: zone)]
            let first = try await database.modifyRecords(saving: saving, deleting: deleting, clientChangeTokenData: token("t1"))
            let before = try database.logSnapshot()
            let again = try await database.modifyRecords(saving: saving, deleting: deleting, clientChangeTokenData: token("t1"))
            #expect(try database.logSnapshot() == before)
            for record in saving {
                let original = try first.saveResults[record.recordID]?.get()
                #expect(original != nil)
                #expect(try again.saveResults[record.recordID]?.get() == original)
                #expect(try again.saveResults[record.recordID]?.get().recordChangeTag == original?.recordChangeTag)
            }
            #expect((try? again.deleteResults[deleting[0]]?.get()) != nil)
            #expect(again.saveResults.count == 2 && again.deleteResults.count == 1)
        }
    }

    @Test("a retry is recognised after the store is closed and reopened, from its checkpoint or by replay")
    func retryAfterReopen() async throws {
        try await withStoreDirectory { path in
            for snapshot in [true, false] {
                let database = try await Database(directory: path, durability: .noSyncUnsafe)
                try await database.createZone(zone)
                let name = snapshot ? "s" : "r"
                let saving = records([name + "1", name + "2"], 7)
                let first = try await database.modifyRecords(saving: saving, deleting: [], clientChangeTokenData: token(name))
                if snapshot { try database.checkpoint() }
                try database.close()
                if !snapshot { try FileManager.default.removeItem(atPath: path + "/snapshots") }

                let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
                #expect((reopened.openReport.zonesFromSnapshot > 0) == snapshot)
                #expect(try await reopened.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == token(name))
                let before = try reopened.logSnapshot()
                let again = try await reopened.modifyRecords(saving: saving, deleting: [], clientChangeTokenData: token(name))
                #expect(try reopened.logSnapshot() == before, "nothing written")
                for record in saving {
                    #expect(try again.saveResults[record.recordID]?.get() == first.saveResults[record.recordID]?.get())
                }
                try reopened.checkpoint()
                try reopened.close()
            }
        }
    }

    @Test("a token that is not the latest commit's is a new request: it is written", arguments: StoreKind.allCases)
    func olderTokenIsANewRequest(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            _ = try await database.modifyRecords(saving: records(["a"], 1), deleting: [], clientChangeTokenData: token("t1"))
            _ = try await database.modifyRecords(saving: records(["b"], 1), deleting: [], clientChangeTokenData: token("t2"))
            let end = try database.endOffset(zone)
            let result = try await database.modifyRecords(
                saving: records(["c"], 1), deleting: [], clientChangeTokenData: token("t1"))
            #expect(try database.endOffset(zone) == end + 1)
            #expect((try? result.saveResults[RecordID(recordName: "c", zoneID: zone)]?.get()) != nil)
        }
    }

    @Test("a retried request that was not atomic: its written items succeed again, its failed item fails as it did", arguments: StoreKind.allCases)
    func retryOfAPartlyFailedRequest(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("taken", zone: zone))
            let saving = records(["fresh", "taken"], 1)
            let first = try await database.modifyRecords(saving: saving, deleting: [], atomically: false, clientChangeTokenData: token("t"))
            let taken = RecordID(recordName: "taken", zoneID: zone), fresh = RecordID(recordName: "fresh", zoneID: zone)
            #expect(failure(first.saveResults[taken])?.code == .serverRecordChanged)
            let before = try database.logSnapshot()
            let again = try await database.modifyRecords(saving: saving, deleting: [], atomically: false, clientChangeTokenData: token("t"))
            #expect(try database.logSnapshot() == before)
            #expect(try again.saveResults[fresh]?.get() == first.saveResults[fresh]?.get())
            #expect(failure(again.saveResults[taken])?.code == .serverRecordChanged)
        }
    }

    @Test("each zone of a request keeps the token; an empty or oversized token is refused", arguments: StoreKind.allCases)
    func severalZonesAndBadTokens(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            let saving = records(["a"], 1) + [makeRecord("b")]
            _ = try await database.modifyRecords(saving: saving, deleting: [], clientChangeTokenData: token("both"))
            #expect(try await database.fetchZoneChanges(in: zone, since: nil).clientChangeTokenData == token("both"))
            #expect(try await database.fetchZoneChanges(in: .default, since: nil).clientChangeTokenData == token("both"))
            let before = try database.logSnapshot()
            _ = try await database.modifyRecords(saving: saving, deleting: [], clientChangeTokenData: token("both"))
            #expect(try database.logSnapshot() == before)
            for bad in [Data(), Data(repeating: 1, count: 1025)] {
                await expectError(.invalidArguments) {
                    _ = try await database.modifyRecords(saving: records(["c"], 1), deleting: [], clientChangeTokenData: bad)
                }
            }
            #expect(try database.logSnapshot() == before)
        }
    }
}
