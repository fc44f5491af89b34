import Foundation
import RecordStore
import Testing

/// What code ported from CloudKit needs, through the public API only (no `@testable`): result
/// types an app can build for its own fakes, record zones as values, and several zones' changes
/// in one call, each with its own configuration (`CKFetchRecordZoneChangesOperation`'s).
@Suite struct PortedAPITests {
    @Test("every result type has a public initialiser, for an app's fakes")
    func resultTypesAreConstructible() {
        let id = RecordID(recordName: "n1")
        let record = Record(recordType: "Note", recordID: id)
        let token = ServerChangeToken(data: Data([1, 2, 3]))
        let changes = ZoneChanges(
            changedRecords: [record], deletions: [ZoneChanges.Deletion(recordID: RecordID(recordName: "n2"), recordType: "Note")],
            changeToken: token, moreComing: true, clientChangeTokenData: Data("t".utf8))
        #expect(changes.changedRecords == [record] && changes.deletions.first?.recordType == "Note" && changes.moreComing)
        let database = DatabaseChanges(changedZones: [.default], deletedZones: [], changeToken: token)
        #expect(database.changedZones == [.default] && !database.moreComing)
        let query = QueryResult(matchResults: [(id, .success(record))])
        #expect(query.records == [record] && query.cursor == nil)
        let modify = ModifyResult(saveResults: [id: .success(record)], deleteResults: [RecordID(recordName: "n2"): .success(())])
        #expect(modify.saveResults.count == 1 && modify.deleteResults.count == 1)
        let notification = SubscriptionNotification(subscriptionID: "s", zoneIDs: [.default], recordID: id, reason: .recordCreated)
        #expect(notification.reason == .recordCreated && !notification.zoneDeleted)
    }

    @Test("record zones as values: save, fetch one, list all; sharing is refused")
    func recordZones() async throws {
        let database = try await Database.inMemory()
        let saved = try await database.save(RecordZone(zoneName: "Notes"))
        #expect(saved.zoneID == ZoneID(zoneName: "Notes") && saved.capabilities == .all)
        #expect(saved.capabilities.contains(.fetchChanges) && saved.capabilities.contains(.atomic))
        #expect(try await database.save(RecordZone(zoneName: "Notes")) == saved, "saving an existing zone returns it")
        #expect(try await database.recordZone(for: ZoneID(zoneName: "Notes")) == saved)
        #expect(try await database.allRecordZones().map(\.zoneID) == [ZoneID(zoneName: "Notes"), .default], "by name")
        do {
            _ = try await database.recordZone(for: ZoneID(zoneName: "Missing"))
            Issue.record("a missing zone was found")
        } catch RecordStoreError.zoneNotFound {}
        var shared = RecordZone(zoneName: "Shared")
        shared.capabilities.insert(.sharing)
        do {
            _ = try await database.save(shared)
            Issue.record("a shared zone was saved")
        } catch RecordStoreError.invalidArguments {}
        #expect(try await database.allRecordZones().count == 2)
    }

    @Test("a zone the store returns carries its current change token: a change fetch from it returns only what came after")
    func zoneCarriesItsChangeToken() async throws {
        let database = try await Database.inMemory()
        #expect(RecordZone(zoneName: "Notes").currentChangeToken == nil, "a zone the app makes has no token")
        let saved = try await database.save(RecordZone(zoneName: "Notes"))
        let notes = saved.zoneID
        var first = Record(recordType: "Note", recordID: RecordID(recordName: "before", zoneID: notes))
        first["title"] = .string("written before the zone was fetched")
        _ = try await database.modifyRecords(saving: [first], deleting: [])

        let fetched = try await database.recordZone(for: notes)
        let token = try #require(fetched.currentChangeToken)
        #expect(fetched.currentChangeToken != saved.currentChangeToken, "the write moved the zone's token")
        #expect(try await database.fetchZoneChanges(in: notes, since: token).changedRecords.isEmpty)
        #expect(try await database.allRecordZones().first { $0.zoneID == notes } == fetched, "the list gives the same token")

        var second = Record(recordType: "Note", recordID: RecordID(recordName: "after", zoneID: notes))
        second["title"] = .string("written after")
        _ = try await database.modifyRecords(saving: [second], deleting: [])
        let later = try await database.fetchZoneChanges(in: notes, since: token)
        #expect(later.changedRecords.map(\.recordID.recordName) == ["after"])
        #expect(try await database.recordZone(for: notes).currentChangeToken == later.changeToken)

        let other = try await database.save(RecordZone(zoneName: "Other"))
        do {
            _ = try await database.fetchZoneChanges(in: other.zoneID, since: token)
            Issue.record("another zone's token was accepted")
        } catch RecordStoreError.invalidArguments {}
        _ = try await database.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "o", zoneID: other.zoneID))], deleting: [])
        let resaved = try await database.save(other)
        #expect(resaved.currentChangeToken != other.currentChangeToken, "the stale token sent back is ignored: the answer is the zone's own")
        #expect(try await database.fetchZoneChanges(in: other.zoneID, since: resaved.currentChangeToken).changedRecords.isEmpty)
    }

    @Test("several zones' changes in one call: each its own token, limit and desired keys, moreComing per zone")
    func severalZonesChanges() async throws {
        let database = try await Database.inMemory()
        let notes = ZoneID(zoneName: "Notes"), photos = ZoneID(zoneName: "Photos")
        for zone in [notes, photos] {
            try await database.createZone(zone)
            var records: [Record] = []
            for index in 0..<3 {
                var record = Record(recordType: "Item", recordID: RecordID(recordName: "r\(index)", zoneID: zone))
                record["title"] = .string("t\(index)")
                record["body"] = .string("b\(index)")
                records.append(record)
            }
            _ = try await database.modifyRecords(saving: records, deleting: [])
        }
        let first = try await database.fetchZoneChanges(in: notes, since: nil, resultsLimit: 2)
        let missing = ZoneID(zoneName: "Missing")
        let results = try await database.fetchZoneChanges(inZonesWith: [notes, photos, missing], configurations: [
            notes: ZoneChangesConfiguration(previousServerChangeToken: first.changeToken),
            photos: ZoneChangesConfiguration(resultsLimit: 2, desiredKeys: ["title"]),
        ])
        let notesPage = try #require(try results[notes]?.get())
        #expect(notesPage.changedRecords.map(\.recordID.recordName) == ["r2"] && !notesPage.moreComing)
        let photosPage = try #require(try results[photos]?.get())
        #expect(photosPage.changedRecords.map(\.recordID.recordName) == ["r0", "r1"] && photosPage.moreComing)
        #expect(photosPage.changedRecords.allSatisfy { $0.allKeys() == ["title"] })
        guard case .failure(let error)? = results[missing] else {
            Issue.record("a missing zone answered")
            return
        }
        #expect(error.code == .zoneNotFound)
    }
}
