import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// CloudKit's query rules, from `CKQuery`'s documentation, each with records that would expose a
/// difference: `==` on a string ignores case, `BEGINSWITH` does not; `CONTAINS` is list
/// membership; `self CONTAINS "…"` is a token search for any of the words; a record type belongs
/// to the database; `maximumResults` (0) is as many as possible; `TRUEPREDICATE`/`FALSEPREDICATE`.
@Suite(.everyTuning) struct QueryRulesTests {
    @Test("== and != on a string compare case-insensitively, indexed or not; beginsWith is case-sensitive", arguments: StoreKind.allCases)
    func stringComparisons(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.saveAll([
                queryRecord("a", ["s": .string("Bob")]), queryRecord("b", ["s": .string("bob")]), queryRecord("c", ["s": .string("BOB")]),
                queryRecord("d", ["s": .string("Böb")]), queryRecord("e", ["s": .string("Bobby")]), queryRecord("f", ["s": .list([.string("bob")])]),
            ])
            for indexed in [false, true] {
                if indexed { try await db.createIndex(recordType: "Item", key: "s") }
                #expect(try await db.names([.init("s", .equals, .string("bob"))]) == ["a", "b", "c"], "indexed: \(indexed)")
                #expect(try await db.names([.init("s", .notEquals, .string("BoB"))]) == ["d", "e"], "indexed: \(indexed)")
                #expect(try await db.names([.init("s", .beginsWith, .string("Bo"))]) == ["a", "e"], "byte for byte: not Böb")
                #expect(try await db.names([.init("s", .beginsWith, .string("bo"))]) == ["b"])
                #expect(try await db.names([.init("s", .in, .list([.string("bob")]))]) == ["b"], "in compares as stored")
            }
        }
    }

    @Test("an index answers case-insensitive == after records change and go: the same names as without it", arguments: StoreKind.allCases)
    func caseInsensitiveEqualityThroughAChangingIndex(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.createIndex(recordType: "Item", key: "s")
            try await db.saveAll([
                queryRecord("a", ["s": .string("Bob")]), queryRecord("b", ["s": .string("bob")]), queryRecord("c", ["s": .string("BOB")]),
                queryRecord("d", ["s": .string("Rob")]), queryRecord("e", ["s": .string("Bob")]),
            ])
            #expect(try await db.names([.init("s", .equals, .string("bOB"))]) == ["a", "b", "c", "e"])
            try await db.saveAll([queryRecord("c", ["s": .string("rob")]), queryRecord("a", ["s": .string("Robert")])])
            _ = try await db.modifyRecords(saving: [], deleting: [RecordID(recordName: "b")])
            #expect(try await db.names([.init("s", .equals, .string("bob"))]) == ["e"], "moved and deleted records leave the folded entry")
            #expect(try await db.names([.init("s", .equals, .string("ROB"))]) == ["c", "d"])
            _ = try await db.modifyRecords(saving: [], deleting: [RecordID(recordName: "e")])
            #expect(try await db.names([.init("s", .equals, .string("bob"))]).isEmpty, "the last Bob is gone")
            #expect(try await db.names([.init("s", .notEquals, .string("rob"))]) == ["a"])
        }
    }

    @Test("CONTAINS (listContains) is list membership; on a string field the query fails, never an empty page", arguments: StoreKind.allCases)
    func containsOnAStringIsAnError(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.saveAll([queryRecord("a", ["tags": .list([.string("red")])]), queryRecord("c", ["tags": .list([.string("blue")])])])
            #expect(try await db.names([.init("tags", .listContains, .string("red"))]) == ["a"])
            _ = try await db.save(queryRecord("b", ["tags": .string("red")]))
            let error = await expectError(.invalidArguments) { _ = try await db.names([.init("tags", .listContains, .string("red"))]) }
            #expect(error?.message.contains("tokenMatch") == true)
        }
    }

    @Test("self CONTAINS \"bob smith\" matches any token, ignoring case, diacritics and stopwords; allTokens needs every one", arguments: StoreKind.allCases)
    func tokenSearch(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.saveAll([
                queryRecord("a", ["name": .string("Bob Smith")]), queryRecord("b", ["maker": .string("SMITH & Wesson")]),
                queryRecord("c", ["name": .string("Bobby")]), queryRecord("d", ["title": .string("The End")]),
                queryRecord("e", ["tags": .list([.string("Bøb"), .string("Bób")])]),
            ])
            let self_ = QueryPredicate.tokenSearchKey
            #expect(try await db.names([.init(self_, .tokenMatch, .string("bob smith"))]) == ["a", "b", "e"])
            #expect(try await db.names([.init(self_, .tokenMatch, .string("BÓB"))]) == ["a", "e"], "diacritics and case ignored")
            #expect(try await db.names([.init(self_, .tokenMatch, .string("the bob"))]) == ["a", "e"], "\"the\" is a stopword")
            #expect(try await db.names([.init(QueryPredicate.allTokensKey, .allTokensMatch, .string("bob smith"))]) == ["a"])
            for key in ["name", "Self", ""] {
                await expectError(.invalidArguments, "key \(key)") { _ = try await db.names([.init(key, .tokenMatch, .string("bob"))]) }
            }
        }
    }

    @Test("a record type is the database's: a zone without it answers an empty page; an unknown type is unknownItem", arguments: StoreKind.allCases)
    func recordTypesAreDatabaseWide(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            let other = ZoneID(zoneName: "Other")
            try await db.createZone(other)
            _ = try await db.save(queryRecord("a"))
            let page = try await db.records(matching: RecordQuery(recordType: "Item"), inZoneWith: other)
            #expect(page.records.isEmpty && page.cursor == nil)
            let error = await expectError(.unknownItem) { _ = try await db.records(matching: RecordQuery(recordType: "Itme"), inZoneWith: other) }
            #expect(error?.message.contains("Record type \"Itme\" is unknown") == true)
        }
    }

    @Test("resultsLimit 0 is as many as possible, for queries and for zone changes", arguments: StoreKind.allCases)
    func zeroLimitMeansAll(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.saveAll((0..<150).map { queryRecord("r\($0)", ["n": .int64(Int64($0))]) })
            let page = try await db.records(matching: RecordQuery(recordType: "Item"), resultsLimit: 0)
            #expect(page.records.count == 150 && page.cursor == nil)
            let changes = try await db.fetchZoneChanges(in: .default, since: nil, resultsLimit: 0)
            #expect(changes.changedRecords.count == 150 && !changes.moreComing)
            await expectError(.invalidArguments) { _ = try await db.fetchZoneChanges(in: .default, since: nil, resultsLimit: -1) }
        }
    }

    @Test("TRUEPREDICATE matches every record, FALSEPREDICATE none", arguments: StoreKind.allCases)
    func namedConstants(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            try await db.saveAll([queryRecord("a"), queryRecord("b", ["n": .int64(1)])])
            #expect(try await db.names([.truePredicate]) == ["a", "b"])
            #expect(try await db.names([.falsePredicate]).isEmpty)
            #expect(try await db.names([.truePredicate, .init("n", .equals, .int64(1))]) == ["b"])
        }
    }

    @Test("a query subscription without firing options is refused, and not saved", arguments: StoreKind.allCases)
    func subscriptionNeedsFiringOptions(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            let silent = Subscription(id: "silent", kind: .query(RecordQuery(recordType: "Item"), zoneID: nil, firesOn: []))
            await expectError(.invalidArguments) { _ = try await db.save(silent) }
            let stored = try await db.allSubscriptions()
            #expect(stored.isEmpty)
            let creations = Subscription(id: "new", kind: .query(RecordQuery(recordType: "Item"), zoneID: nil, firesOn: .recordCreation))
            let saved = try await db.save(creations)
            #expect(saved == creations)
        }
    }

    @Test("distanceToLocation(_:fromLocation:) < radius filters, and a location sort orders by distance, across pages", arguments: StoreKind.allCases)
    func locations(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { db in
            let paris = Location(latitude: 48.8566, longitude: 2.3522)
            try await db.saveAll([
                queryRecord("versailles", ["at": .location(Location(latitude: 48.8049, longitude: 2.1204))]),  // ≈ 17.9 km
                queryRecord("orly", ["at": .location(Location(latitude: 48.7262, longitude: 2.3652))]),  // ≈ 14.5 km
                queryRecord("louvre", ["at": .location(Location(latitude: 48.8606, longitude: 2.3376))]),  // ≈ 1.2 km
                queryRecord("lyon", ["at": .location(Location(latitude: 45.7640, longitude: 4.8357))]),  // ≈ 392 km
                queryRecord("nowhere", ["at": .string("not a location")]),
            ])
            let near = QueryPredicate.distanceToLocation("at", fromLocation: paris, lessThan: 16_000)
            #expect(try await db.names([near]) == ["louvre", "orly"])
            let byDistance = [QuerySortDescriptor(key: "at", relativeLocation: paris)]
            #expect(try await db.names([], sort: byDistance) == ["nowhere", "louvre", "orly", "versailles", "lyon"])
            let pages = try await db.allPages(RecordQuery(recordType: "Item", sortDescriptors: byDistance), limit: 2)
            #expect(pages.flatMap(\.names) == ["nowhere", "louvre", "orly", "versailles", "lyon"])
            let farthest = [QuerySortDescriptor(key: "at", relativeLocation: paris, ascending: false)]
            #expect(try await db.names([near], sort: farthest) == ["orly", "louvre"])
            await expectError(.invalidArguments) {
                _ = try await db.names([.distanceToLocation("at", fromLocation: paris, lessThan: -1)])
            }
        }
    }
}
