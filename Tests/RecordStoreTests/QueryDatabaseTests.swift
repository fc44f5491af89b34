import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// Queries through the database: filters, sorts, keys, limits, zones, errors.
@Suite(.everyTuning) struct QueryDatabaseTests {
    @Test(arguments: StoreKind.allCases) func everyComparisonRunsAgainstStoredRecords(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll([
            queryRecord("a", ["n": .int64(1), "s": .string("apple"), "tags": .list([.string("red")]), "text": .string("Crème Brûlée")]),
            queryRecord("b", ["n": .double(2.5), "s": .string("banana"), "tags": .list([.string("yellow")])]),
            queryRecord("c", ["n": .int64(3), "s": .string("cherry"), "tags": .list([.string("red"), .string("dark")])]),
            queryRecord("d", ["s": .string("date")]),
        ])
        #expect(try await db.names([.init("n", .equals, .double(1))]) == ["a"])
        #expect(try await db.names([.init("n", .notEquals, .int64(1))]) == ["b", "c"])
        #expect(try await db.names([.init("n", .lessThan, .int64(3))]) == ["a", "b"])
        #expect(try await db.names([.init("n", .lessThanOrEquals, .double(2.5))]) == ["a", "b"])
        #expect(try await db.names([.init("n", .greaterThan, .int64(2))]) == ["b", "c"])
        #expect(try await db.names([.init("n", .greaterThanOrEquals, .int64(3))]) == ["c"])
        #expect(try await db.names([.init("s", .in, .list([.string("date"), .string("apple")]))]) == ["a", "d"])
        #expect(try await db.names([.init("s", .beginsWith, .string("b"))]) == ["b"])
        #expect(try await db.names([.init("tags", .listContains, .string("red"))]) == ["a", "c"])
        #expect(try await db.names([.init("self", .tokenMatch, .string("creme brulee"))]) == ["a"])
        #expect(try await db.names([.init("s", .greaterThan, .string("b")), .init("n", .lessThan, .int64(3))]) == ["b"], "AND")
        #expect(try await db.names([.init("s", .greaterThan, .string("b")), .init("tags", .listContains, .string("red"))]) == ["c"])
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func systemDatesFilterAndSort(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        for name in ["first", "second", "third"] {
            _ = try await db.save(queryRecord(name))
            try await Task.sleep(for: .milliseconds(5))
        }
        _ = try await db.save(queryRecord("first"), savePolicy: .allKeys)  // modified last
        let second = try await db.record(for: RecordID(recordName: "second"))
        let created = try #require(second.creationDate)
        #expect(try await db.names([.init("creationDate", .greaterThan, .date(created))]) == ["third"])
        #expect(try await db.names([.init("creationDate", .lessThanOrEquals, .date(created))]) == ["first", "second"])
        #expect(try await db.names([], sort: [QuerySortDescriptor(key: "creationDate", ascending: false)]) == ["third", "second", "first"])
        #expect(try await db.names([], sort: [QuerySortDescriptor(key: "modificationDate")]) == ["second", "third", "first"])
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func sortsByKeysInTurnThenZoneAndName(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll([
            queryRecord("e", ["group": .int64(2), "score": .double(1.5)]),
            queryRecord("b", ["group": .int64(1), "score": .int64(9)]),
            queryRecord("a", ["group": .int64(1), "score": .int64(9)]),
            queryRecord("c", ["group": .int64(1), "score": .int64(3)]),
            queryRecord("d", ["score": .int64(5)]),
            queryRecord("f", ["group": .double(1), "score": .double(3.5)]),
        ])
        let ascending = [QuerySortDescriptor(key: "group"), QuerySortDescriptor(key: "score", ascending: false)]
        #expect(try await db.names([], sort: ascending) == ["d", "a", "b", "f", "c", "e"], "missing first; ties by name")
        let descending = [QuerySortDescriptor(key: "group", ascending: false), QuerySortDescriptor(key: "score")]
        #expect(try await db.names([], sort: descending) == ["e", "c", "f", "a", "b", "d"], "missing last when descending")
        #expect(try await db.names([], sort: [QuerySortDescriptor(key: "score")]) == ["e", "c", "f", "d", "a", "b"], "int64 and double together")
        #expect(try await db.names([]) == ["a", "b", "c", "d", "e", "f"], "no descriptors: by name")
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func desiredKeysAndResultsLimit(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll((0..<10).map { queryRecord("r\($0)", ["a": .int64(Int64($0)), "b": .string("x")]) })
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "a", ascending: false)])
        let all = try await db.records(matching: query, resultsLimit: 3)
        #expect(all.names == ["r9", "r8", "r7"])
        #expect(all.cursor != nil)
        #expect(all.records.allSatisfy { $0.allKeys() == ["a", "b"] && $0.recordChangeTag != nil })
        let none = try await db.records(matching: query, desiredKeys: [], resultsLimit: 2)
        #expect(none.records.allSatisfy { $0.allKeys().isEmpty && $0.creationDate != nil })
        let some = try await db.records(matching: query, desiredKeys: ["b", "missing"], resultsLimit: 2)
        #expect(some.records.allSatisfy { $0.allKeys() == ["b"] })
        let everything = try await db.records(matching: query, resultsLimit: 10)
        #expect(everything.names.count == 10)
        #expect(everything.cursor == nil, "no cursor when nothing more matches")
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func oneZoneOrAllZones(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        let work = ZoneID(zoneName: "Work")
        let home = ZoneID(zoneName: "Home")
        try await db.createZone(work)
        try await db.createZone(home)
        try await db.saveAll([
            queryRecord("x", zone: work, ["n": .int64(1)]), queryRecord("x", zone: home, ["n": .int64(1)]),
            queryRecord("y", zone: home, ["n": .int64(2)]), queryRecord("z", ["n": .int64(1)]),
        ])
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "n")])
        let everywhere = try await db.records(matching: query)
        #expect(everywhere.matchResults.map(\.0) == [
            RecordID(recordName: "x", zoneID: home), RecordID(recordName: "x", zoneID: work),
            RecordID(recordName: "z"), RecordID(recordName: "y", zoneID: home),
        ], "ties by zone name, then record name")
        #expect(try await db.records(matching: query, inZoneWith: home).names == ["x", "y"])
        // Paging across zones.
        let pages = try await db.allPages(query, limit: 1)
        #expect(pages.flatMap { $0.matchResults.map(\.0) } == everywhere.matchResults.map(\.0))
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func unknownTypeAndZoneFail(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        let other = ZoneID(zoneName: "Other")
        try await db.createZone(other)
        _ = try await db.save(queryRecord("a", zone: other))
        await expectError(.unknownItem) { _ = try await db.records(matching: RecordQuery(recordType: "Nothing")) }
        // A record type is the database's (CloudKit's schema): known in a zone without records of it.
        #expect(try await db.records(matching: RecordQuery(recordType: "Item"), inZoneWith: .default).records.isEmpty)
        await expectError(.zoneNotFound) { _ = try await db.records(matching: RecordQuery(recordType: "Item"), inZoneWith: ZoneID(zoneName: "Nope")) }
        // A type whose records were all deleted is known: the answer is empty, not an error.
        try await db.delete(RecordID(recordName: "a", zoneID: other))
        #expect(try await db.records(matching: RecordQuery(recordType: "Item")).matchResults.isEmpty)
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func malformedQueriesAreRefusedUpFront(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        _ = try await db.save(queryRecord("a", ["n": .int64(1)]))
        let bad: [QueryPredicate] = [
            .init("n", .beginsWith, .int64(1)),
            .init("n", .lessThan, .bool(true)),
            .init("n", .greaterThan, .double(.nan)),
            .init("n", .in, .string("1")),
            .init("n", .in, .list([.list([.int64(1)])])),
            .init("n", .listContains, .list([.int64(1)])),
            .init("self", .tokenMatch, .string("  ,, ")),
            .init("self", .tokenMatch, .int64(1)),
            .init("self", .tokenMatch, .string("the and of")),
            .init("anything", .tokenMatch, .string("creme")),
            .init("self", .allTokensMatch, .string("creme")),
            .init("_n", .equals, .int64(1)),
            .init("creationDate", .equals, .int64(1)),
        ]
        for predicate in bad {
            let error = await expectError(.invalidArguments, "\(predicate)") {
                _ = try await db.records(matching: RecordQuery(recordType: "Item", predicates: [predicate]))
            }
            #expect(error?.message.isEmpty == false)
        }
        await expectError(.invalidArguments) { _ = try await db.records(matching: RecordQuery(recordType: "Item"), resultsLimit: -1) }
        await expectError(.invalidArguments) {
            _ = try await db.records(matching: RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "bad key")]))
        }
        await expectError(.invalidArguments) { _ = try await db.records(matching: RecordQuery(recordType: "9lives")) }
        try db.removeTemporaryDirectory()
    }
}

@Suite(.everyTuning) struct QueryAfterCheckpointTests {
    @Test("a type whose records were all deleted before a checkpoint still queries as empty after reopen")
    func knownTypeSurvivesCheckpoint() async throws {
        let database = try await Database.temporary()
        let directory = try #require(database.directory)
        let saved = try await database.save(Record(recordType: "Gone", recordID: RecordID(recordName: "g")))
        try await database.delete(saved.recordID)
        try database.close()
        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        #expect(reopened.openReport.zonesFromSnapshot >= 1)
        let page = try await reopened.records(matching: RecordQuery(recordType: "Gone"))
        #expect(page.matchResults.isEmpty)
        await #expect(throws: RecordStoreError.self) { try await reopened.records(matching: RecordQuery(recordType: "NeverSaved")) }
        try reopened.removeTemporaryDirectory()
    }
}
