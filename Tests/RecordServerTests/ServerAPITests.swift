import Foundation
import RecordClient
import RecordStore
import RecordSync
import Testing

/// Every call of the API through `HTTPRemoteDatabase`, against a server on a loopback port: the
/// answers are what a local `Database` gives.
@Suite struct ServerAPITests {
    let zone = ZoneID(zoneName: "Notes")

    func note(_ name: String, _ text: String) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["text"] = .string(text)
        return record
    }

    @Test("zones: save (twice is the same zone), list, delete; deleting a missing zone is zoneNotFound", arguments: ServerStorage.allCases)
    func zones(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        let saved = try await remote.save(RecordZone(zoneID: zone))
        #expect(saved.zoneID == zone)
        #expect(try await remote.save(RecordZone(zoneID: zone)) == saved)
        #expect(try await remote.allRecordZones().map(\.zoneID).contains(zone))
        let listed = try #require(try await remote.allRecordZones().first { $0.zoneID == zone })
        let token = try #require(listed.currentChangeToken, "the server reports each zone's token")
        _ = try await remote.modifyRecords(saving: [note("n1", "after the list")], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
        let changes = try await remote.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: ZoneChangesConfiguration(previousServerChangeToken: token)])
        #expect(try changes[zone]?.get().changedRecords.map(\.recordID.recordName) == ["n1"])
        try await remote.deleteZone(zone)
        #expect(!(try await remote.allRecordZones().map(\.zoneID).contains(zone)))
        await #expect(throws: RecordStoreError.self) { try await remote.deleteZone(zone) }
        do { try await remote.deleteZone(zone) } catch let error as RecordStoreError { #expect(error.code == .zoneNotFound) }
        try await server.stopAndRemove()
    }

    @Test("records: modify, lookup (with desiredKeys), query with pages, non-atomic per-item errors", arguments: ServerStorage.allCases)
    func records(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        let notes = (0..<5).map { note("n\($0)", "note \($0)") }
        let result = try await remote.modifyRecords(saving: notes, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
        #expect(result.saveResults.count == 5)
        let first = try #require(try result.saveResults[notes[0].recordID]?.get())
        #expect(first.recordChangeTag != nil && first.creationDate != nil)
        #expect(first["text"] == .string("note 0"))

        let found = try await remote.records(for: [notes[0].recordID, RecordID(recordName: "missing", zoneID: zone)], desiredKeys: [])
        #expect(try found[notes[0].recordID]?.get().recordChangeTag == first.recordChangeTag)
        #expect(try found[notes[0].recordID]?.get()["text"] == nil)
        if case .failure(let error)? = found[RecordID(recordName: "missing", zoneID: zone)] {
            #expect(error.code == .unknownItem)
        } else {
            Issue.record("a missing record must be unknownItem")
        }

        let query = RecordQuery(recordType: "Note", sortDescriptors: [QuerySortDescriptor(key: "text")])
        var page = try await remote.records(matching: query, inZoneWith: zone, resultsLimit: 2)
        var names = page.records.map(\.recordID.recordName)
        while let cursor = page.cursor {
            page = try await remote.records(continuingMatchFrom: cursor, resultsLimit: 2)
            names += page.records.map(\.recordID.recordName)
        }
        #expect(names == ["n0", "n1", "n2", "n3", "n4"])

        // Non-atomic: one stale save fails alone, the delete succeeds.
        var stale = notes[1]
        stale["text"] = .string("stale")
        let mixed = try await remote.modifyRecords(
            saving: [stale], deleting: [notes[2].recordID], savePolicy: .ifServerRecordUnchanged, atomically: false, clientChangeTokenData: nil)
        if case .failure(let error)? = mixed.saveResults[stale.recordID] { #expect(error.code == .serverRecordChanged) } else {
            Issue.record("the stale save must fail")
        }
        #expect((try? mixed.deleteResults[notes[2].recordID]?.get()) != nil)
        try await server.stopAndRemove()
    }

    @Test(
        "changes: database changes, several zones' changes with pages, deletions, tokens and the client change token",
        arguments: ServerStorage.allCases)
    func changes(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        let other = ZoneID(zoneName: "Other")
        try await remote.save(RecordZone(zoneID: zone))
        try await remote.save(RecordZone(zoneID: other))
        let database = try await remote.fetchDatabaseChanges(since: nil)
        #expect(Set(database.changedZones).isSuperset(of: [zone, other]))
        let token = Data("request-1".utf8)
        let saved = try await remote.modifyRecords(
            saving: [note("a", "A"), note("b", "B"), note("c", "C")], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true,
            clientChangeTokenData: token)
        #expect(saved.saveResults.count == 3)
        let results = try await remote.fetchZoneChanges(
            inZonesWith: [zone, other, ZoneID(zoneName: "Missing")], configurations: [zone: ZoneChangesConfiguration(resultsLimit: 2)])
        let page = try #require(try results[zone]?.get())
        #expect(page.changedRecords.count == 2 && page.moreComing)
        #expect(page.clientChangeTokenData == token)
        let rest = try await remote.fetchZoneChanges(
            inZonesWith: [zone], configurations: [zone: ZoneChangesConfiguration(previousServerChangeToken: page.changeToken)])
        #expect(try rest[zone]?.get().changedRecords.map(\.recordID.recordName) == ["c"])
        #expect(try results[other]?.get().changedRecords.isEmpty == true)
        if case .failure(let error)? = results[ZoneID(zoneName: "Missing")] { #expect(error.code == .zoneNotFound) } else {
            Issue.record("a missing zone must be zoneNotFound")
        }
        // A delete shows as a deletion after the last token.
        let end = try #require(try rest[zone]?.get().changeToken)
        _ = try await remote.modifyRecords(
            saving: [], deleting: [RecordID(recordName: "a", zoneID: zone)], savePolicy: .ifServerRecordUnchanged, atomically: true,
            clientChangeTokenData: nil)
        let after = try await remote.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: end)])
        #expect(try after[zone]?.get().deletions.map(\.recordID.recordName) == ["a"])
        let databaseAfter = try await remote.fetchDatabaseChanges(since: database.changeToken)
        #expect(databaseAfter.changedZones == [zone])
        try await server.stopAndRemove()
    }

    @Test("subscriptions: save, list, notifications after each commit, delete ends the stream", arguments: ServerStorage.allCases)
    func subscriptions(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        let subscription = Subscription(id: "notes zone", kind: .zone(zone))
        #expect(try await remote.save(subscription) == subscription)
        #expect(try await remote.allSubscriptions() == [subscription])
        let stream = try await remote.notifications(for: subscription.id)
        _ = try await remote.modifyRecords(saving: [note("x", "X")], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
        var iterator = stream.makeAsyncIterator()
        let notification = await iterator.next()
        #expect(notification?.subscriptionID == subscription.id)
        #expect(notification?.zoneIDs == [zone])
        try await remote.deleteSubscription(subscription.id)
        #expect(await iterator.next() == nil)
        #expect(try await remote.allSubscriptions().isEmpty)
        await #expect(throws: RecordStoreError.self) { _ = try await remote.notifications(for: subscription.id) }
        await #expect(throws: RecordStoreError.self) { try await remote.deleteSubscription(subscription.id) }
        try await server.stopAndRemove()
    }

    @Test("a retry with the same client change token writes nothing and answers the first answer", arguments: ServerStorage.allCases)
    func idempotentRetry(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        let token = Data("once".utf8)
        let first = try await remote.modifyRecords(
            saving: [note("r", "R")], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: token)
        let again = try await remote.modifyRecords(
            saving: [note("r", "R")], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: token)
        let tag = try first.saveResults[RecordID(recordName: "r", zoneID: zone)]?.get().recordChangeTag
        #expect(try again.saveResults[RecordID(recordName: "r", zoneID: zone)]?.get().recordChangeTag == tag)
        let changes = try await remote.fetchZoneChanges(inZonesWith: [zone], configurations: [:])
        #expect(try changes[zone]?.get().changedRecords.count == 1)
        try await server.stopAndRemove()
    }
}
