import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// Subscriptions: database, zone and query subscriptions, their notification streams.
///
/// "No notification" is checked without sleeping: after the event that must not notify, a
/// second event that must notify is made, and the next notification must be the second one's.
@Suite(.timeLimit(.minutes(10)), .everyTuning) struct DatabaseSubscriptionTests {
    typealias Iterator = AsyncStream<SubscriptionNotification>.AsyncIterator

    private func listen(_ database: Database, _ subscription: Subscription) async throws -> Iterator {
        try await database.save(subscription)
        return try database.notifications(for: subscription.id).makeAsyncIterator()
    }

    @Test("a database subscription fires once per commit, for zone creation and deletion too, and not for failed or empty requests", arguments: StoreKind.allCases)
    func databaseSubscription(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var events = try await listen(database, Subscription(id: "db", kind: .database))
            let zone = ZoneID(zoneName: "A")

            let saved = try await database.modifyRecords(saving: (0..<3).map { makeRecord("r\($0)") }, deleting: [])
            let first = await events.next()
            #expect(first == SubscriptionNotification(subscriptionID: "db", zoneIDs: [.default], recordID: nil, reason: nil, zoneDeleted: false))

            try await database.createZone(zone)
            #expect(await events.next() == SubscriptionNotification(subscriptionID: "db", zoneIDs: [zone], zoneDeleted: false))

            // No notification: creating an existing zone, a failed atomic request, an empty request.
            try await database.createZone(zone)
            _ = try? await database.save(makeRecord("r0"))  // conflict: r0 exists
            _ = try await database.modifyRecords(saving: [], deleting: [])
            _ = try await database.modifyRecords(saving: [makeRecord("bad", ["_x": .int64(1)])], deleting: [], atomically: false)
            // Barrier: a commit that does notify.
            _ = try await database.save(makeRecord("in-a", zone: zone))
            #expect(await events.next() == SubscriptionNotification(subscriptionID: "db", zoneIDs: [zone], zoneDeleted: false))

            try await database.delete(try #require(saved.saveResults.keys.first))
            #expect(await events.next()?.zoneIDs == [.default])

            try await database.deleteZone(zone)
            #expect(await events.next() == SubscriptionNotification(subscriptionID: "db", zoneIDs: [zone], zoneDeleted: true))
        }
    }

    @Test("a request touching two zones is one commit per zone: one database notification each", arguments: StoreKind.allCases)
    func databaseSubscriptionTwoZones(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "A")
            try await database.createZone(zone)
            var events = try await listen(database, Subscription(id: "db", kind: .database))
            _ = try await database.modifyRecords(saving: [makeRecord("x"), makeRecord("y", zone: zone), makeRecord("z")], deleting: [])
            let one = await events.next()
            let two = await events.next()
            #expect(Set([one?.zoneIDs, two?.zoneIDs]) == [[.default], [zone]])
            // Barrier: nothing else was sent for that request.
            _ = try await database.save(makeRecord("barrier"))
            #expect(await events.next()?.zoneIDs == [.default])
        }
    }

    @Test("a zone subscription fires once per commit of its zone and never for other zones", arguments: StoreKind.allCases)
    func zoneSubscription(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "A")
            try await database.createZone(zone)
            await expectError(.zoneNotFound) { try await database.save(Subscription(id: "z", kind: .zone(ZoneID(zoneName: "Nope")))) }
            var events = try await listen(database, Subscription(id: "z", kind: .zone(zone)))

            _ = try await database.save(makeRecord("other"))  // another zone: no notification
            try await database.createZone(ZoneID(zoneName: "B"))  // not a commit of A
            _ = try await database.modifyRecords(saving: (0..<5).map { makeRecord("r\($0)", zone: zone) }, deleting: [])
            #expect(await events.next() == SubscriptionNotification(subscriptionID: "z", zoneIDs: [zone], zoneDeleted: false))

            try await database.delete(RecordID(recordName: "r0", zoneID: zone))
            _ = try await database.save(makeRecord("other2"))
            _ = try await database.save(makeRecord("r9", zone: zone))
            #expect(await events.next()?.zoneIDs == [zone], "the delete")
            #expect(await events.next()?.zoneIDs == [zone], "the save; nothing for the default zone in between")
        }
    }

    @Test("a query subscription fires once per matching record change, with the reason", arguments: StoreKind.allCases)
    func querySubscription(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let query = RecordQuery(recordType: "Note", predicates: [QueryPredicate("priority", .greaterThan, .int64(5))])
            var events = try await listen(database, Subscription(id: "q", kind: .query(query, zoneID: nil, firesOn: .all)))
            func expectNext(_ name: String, _ reason: SubscriptionNotification.Reason, zone: ZoneID = .default, sourceLocation: SourceLocation = #_sourceLocation) async {
                let notification = await events.next()
                #expect(notification?.subscriptionID == "q", sourceLocation: sourceLocation)
                #expect(notification?.recordID == RecordID(recordName: name, zoneID: zone), sourceLocation: sourceLocation)
                #expect(notification?.reason == reason, sourceLocation: sourceLocation)
                #expect(notification?.zoneIDs == [zone], sourceLocation: sourceLocation)
                #expect(notification?.zoneDeleted == false, sourceLocation: sourceLocation)
            }

            let created = try await database.modifyRecords(
                saving: [
                    makeRecord("hi", ["priority": .int64(10)]), makeRecord("lo", ["priority": .int64(1)]),
                    makeRecord("task", type: "Task", ["priority": .int64(10)]), makeRecord("hi2", ["priority": .int64(6)]),
                ], deleting: [])
            // One per matching record, in one commit: hi and hi2, not lo or task.
            let firstTwo = [await events.next(), await events.next()]
            #expect(Set(firstTwo.compactMap { $0?.recordID?.recordName }) == ["hi", "hi2"])
            #expect(firstTwo.allSatisfy { $0?.reason == .recordCreated })

            var hi = try #require(try created.saveResults[RecordID(recordName: "hi")]?.get())
            hi["priority"] = .int64(11)
            _ = try await database.save(hi)
            await expectNext("hi", .recordUpdated)

            var lo = try #require(try created.saveResults[RecordID(recordName: "lo")]?.get())
            lo["priority"] = .int64(2)
            _ = try await database.save(lo)  // still does not match: no notification
            lo = try await database.record(for: lo.recordID)
            lo["priority"] = .int64(7)
            _ = try await database.save(lo)  // now it matches: an update
            await expectNext("lo", .recordUpdated)

            try await database.delete(RecordID(recordName: "task"))  // a Task: no notification
            try await database.delete(RecordID(recordName: "hi"))
            await expectNext("hi", .recordDeleted)

            // In another zone too (zoneID nil = all zones).
            let zone = ZoneID(zoneName: "A")
            try await database.createZone(zone)
            _ = try await database.save(makeRecord("far", zone: zone, ["priority": .int64(9)]))
            await expectNext("far", .recordCreated, zone: zone)
        }
    }

    @Test("a query subscription sees records deleted by a cascade, and honours firesOn and its zone", arguments: StoreKind.allCases)
    func querySubscriptionCascadeAndFilters(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID(zoneName: "A")
            try await database.createZone(zone)
            var deletions = try await listen(
                database, Subscription(id: "deletions", kind: .query(RecordQuery(recordType: "Note"), zoneID: zone, firesOn: .recordDeletion)))
            var creations = try await listen(
                database, Subscription(id: "creations", kind: .query(RecordQuery(recordType: "Note"), zoneID: zone, firesOn: .recordCreation)))

            _ = try await database.save(makeRecord("elsewhere"))  // another zone: neither fires
            _ = try await database.modifyRecords(
                saving: [makeRecord("folder", zone: zone, type: "Folder"), makeRecord("note", zone: zone, ["folder": ref("folder", zone: zone)])],
                deleting: [])
            #expect(await creations.next()?.recordID == RecordID(recordName: "note", zoneID: zone))

            var note = try await database.record(for: RecordID(recordName: "note", zoneID: zone))
            note["x"] = .int64(1)
            _ = try await database.save(note)  // an update: neither fires
            try await database.delete(RecordID(recordName: "folder", zoneID: zone))
            let deleted = await deletions.next()
            #expect(deleted?.recordID == RecordID(recordName: "note", zoneID: zone), "the cascaded Note; the Folder does not match")
            #expect(deleted?.reason == .recordDeleted)

            _ = try await database.save(makeRecord("note2", zone: zone))
            #expect(await creations.next()?.recordID == RecordID(recordName: "note2", zoneID: zone), "no notification for the update")
            try await database.delete(RecordID(recordName: "note2", zoneID: zone))
            #expect(await deletions.next()?.recordID == RecordID(recordName: "note2", zoneID: zone))
        }
    }

    @Test("when a notification arrives, the commit it describes is visible", arguments: StoreKind.allCases)
    func notificationAfterCommit(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.save(Subscription(id: "db", kind: .database))
            let events = try database.notifications(for: "db")
            let reader = Task {
                var iterator = events.makeAsyncIterator()
                var seen: [Int64] = []
                while seen.count < 20, await iterator.next() != nil {
                    seen.append(try await database.record(for: RecordID(recordName: "counter"))["n"].flatMap {
                        if case .int64(let value) = $0 { value } else { nil }
                    } ?? -1)
                }
                return seen
            }
            var counter = makeRecord("counter")
            for n in 0..<20 {
                counter["n"] = .int64(Int64(n))
                counter = try await database.save(counter)
            }
            let seen = try await reader.value
            #expect(seen.count == 20)
            for (index, value) in seen.enumerated() { #expect(value >= Int64(index), "notification \(index) saw n = \(value)") }
        }
    }

    @Test("several listeners of one subscription each get every notification", arguments: StoreKind.allCases)
    func severalListeners(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var one = try await listen(database, Subscription(id: "db", kind: .database))
            var two = try database.notifications(for: "db").makeAsyncIterator()
            _ = try await database.save(makeRecord("a"))
            #expect(await one.next()?.zoneIDs == [.default])
            #expect(await two.next()?.zoneIDs == [.default])
        }
    }

    @Test("deleting a subscription ends its streams; it is then unknown", arguments: StoreKind.allCases)
    func deleteSubscription(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var events = try await listen(database, Subscription(id: "db", kind: .database))
            var other = try await listen(database, Subscription(id: "other", kind: .database))
            #expect(try await database.allSubscriptions().map(\.id) == ["db", "other"])
            try await database.deleteSubscription("db")
            #expect(await events.next() == nil, "the stream ended")
            #expect(try await database.allSubscriptions().map(\.id) == ["other"])
            await expectError(.unknownItem) { _ = try database.notifications(for: "db") }
            await expectError(.unknownItem) { try await database.deleteSubscription("db") }
            _ = try await database.save(makeRecord("a"))
            #expect(await other.next()?.subscriptionID == "other", "the other subscription still fires")
        }
    }

    @Test("closing the database ends every stream")
    func closeEndsStreams() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            var events = try await listen(database, Subscription(id: "db", kind: .database))
            try database.close()
            #expect(await events.next() == nil)
        }
    }

    @Test("subscription IDs: 1 to 255 bytes; allSubscriptions is sorted; saving again replaces", arguments: StoreKind.allCases)
    func subscriptionIDs(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            await expectError(.invalidArguments) { try await database.save(Subscription(id: "", kind: .database)) }
            await expectError(.invalidArguments) { try await database.save(Subscription(id: String(repeating: "s", count: 256), kind: .database)) }
            for id in ["b", "a", "c"] { try await database.save(Subscription(id: id, kind: .database)) }
            try await database.save(Subscription(id: "b", kind: .zone(.default)))
            let all = try await database.allSubscriptions()
            #expect(all.map(\.id) == ["a", "b", "c"])
            #expect(all[1].kind == .zone(.default))
            await expectError(.unknownItem) { _ = try database.notifications(for: "nope") }
        }
    }

    @Test("a query subscription to a zone that does not exist is refused, as a zone subscription is", arguments: StoreKind.allCases)
    func querySubscriptionMissingZone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let missing = ZoneID(zoneName: "Nope")
            await expectError(.zoneNotFound) { try await database.save(Subscription(id: "z", kind: .zone(missing))) }
            await expectError(.zoneNotFound) {
                try await database.save(Subscription(id: "q", kind: .query(RecordQuery(recordType: "Note"), zoneID: missing, firesOn: .all)))
            }
            
        }
    }

    @Test("a stream follows its subscription when the subscription is saved again with another kind", arguments: StoreKind.allCases)
    func replacedSubscriptionStream(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let a = ZoneID(zoneName: "A")
            let b = ZoneID(zoneName: "B")
            try await database.createZone(a)
            try await database.createZone(b)
            var events = try await listen(database, Subscription(id: "s", kind: .zone(a)))
            try await database.save(Subscription(id: "s", kind: .zone(b)))
            _ = try await database.save(makeRecord("in-a", zone: a))
            _ = try await database.save(makeRecord("in-b", zone: b))
            #expect(await events.next()?.zoneIDs == [b])
            
            // A stream opened after the replacement follows the new kind.
            var fresh = try database.notifications(for: "s").makeAsyncIterator()
            _ = try await database.save(makeRecord("in-a-2", zone: a))
            _ = try await database.save(makeRecord("in-b-2", zone: b))
            #expect(await fresh.next()?.zoneIDs == [b])
        }
    }

    @Test("a query subscription holding a location that is not finite is refused with invalidArguments, and nothing is saved", arguments: StoreKind.allCases)
    func nonFiniteQueryRefused(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let query = RecordQuery(
                recordType: "Place",
                predicates: [.distanceToLocation("where", fromLocation: Location(latitude: .infinity, longitude: 0), lessThan: 10)])
            do {
                try await database.save(Subscription(id: "near", kind: .query(query, zoneID: nil, firesOn: .all)))
                Issue.record("a subscription with an infinite location was saved")
            } catch let error as RecordStoreError {
                #expect(error.code == .invalidArguments)
            }
            #expect(try await database.allSubscriptions().isEmpty)
        }
    }
}
