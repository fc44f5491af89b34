import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// Indexes: the same answers as a scan, fewer records read, kept across saves, deletes and reopen.
@Suite(.everyTuning) struct QueryIndexTests {
    static let colors = ["red", "green", "blue", "cyan", "teal", "gold", "gray", "pink", "plum", "navy"]

    func palette(_ count: Int) -> [Record] {
        (0..<count).map { index in
            queryRecord(String(format: "r%03d", index), ["color": .string(Self.colors[index % 10]), "rank": .int64(Int64(index))])
        }
    }

    @Test(arguments: StoreKind.allCases) func indexedEqualityReadsOnlyTheMatchingRecords(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll(palette(300))
        let query = RecordQuery(recordType: "Item", predicates: [.init("color", .equals, .string("red"))])
        let scanned = try await db.records(matching: query, resultsLimit: 1000)
        #expect(scanned.recordsExamined == 300)
        try await db.createIndex(recordType: "Item", key: "color")
        let indexed = try await db.records(matching: query, resultsLimit: 1000)
        #expect(indexed.recordsExamined == 30)
        #expect(indexed.names == scanned.names)
        let either = RecordQuery(recordType: "Item", predicates: [.init("color", .in, .list([.string("red"), .string("blue")])), .init("rank", .lessThan, .int64(100))])
        let inResult = try await db.records(matching: either, resultsLimit: 1000)
        #expect(inResult.recordsExamined == 60)
        #expect(inResult.names.count == 20)
        let none = try await db.records(matching: RecordQuery(recordType: "Item", predicates: [.init("color", .equals, .string("mauve"))]))
        #expect(none.recordsExamined == 0 && none.matchResults.isEmpty)
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func indexedSortStopsEarly(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll(palette(300))
        try await db.createIndex(recordType: "Item", key: "rank")
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "rank", ascending: false)])
        let page = try await db.records(matching: query, resultsLimit: 5)
        #expect(page.names == ["r299", "r298", "r297", "r296", "r295"])
        #expect(page.recordsExamined == 6, "the page and one more, to know a next page exists")
        let next = try await db.records(continuingMatchFrom: try #require(page.cursor), resultsLimit: 5)
        #expect(next.names == ["r294", "r293", "r292", "r291", "r290"])
        #expect(next.recordsExamined == 6)
        // Unsorted queries read in name order and stop early too, index or not.
        let unsorted = try await db.records(matching: RecordQuery(recordType: "Item"), resultsLimit: 5)
        #expect(unsorted.recordsExamined == 6)
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func indexesFollowSavesDeletesAndTypeChanges(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.createIndex(recordType: "Item", key: "color")
        try await db.saveAll(palette(20))
        let red: [QueryPredicate] = [.init("color", .equals, .string("red"))]
        #expect(try await db.names(red) == ["r000", "r010"])
        try await db.saveAll([queryRecord("r001", ["color": .string("red")]), queryRecord("r010", ["color": .string("blue")])])
        try await db.delete(RecordID(recordName: "r000"))
        try await db.saveAll([queryRecord("r002", type: "Other", ["color": .string("red")])])
        #expect(try await db.names(red) == ["r001"])
        let result = try await db.records(matching: RecordQuery(recordType: "Item", predicates: red))
        #expect(result.recordsExamined == 1)
        try db.removeTemporaryDirectory()
    }

    @Test func indexSurvivesCloseAndReopen() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("QueryIndex-\(UUID().uuidString)").path
        let db = try await Database(directory: path, durability: .noSyncUnsafe)
        try await db.saveAll(palette(100))
        try await db.createIndex(recordType: "Item", key: "color")
        try await db.createIndex(recordType: "Item", key: "color")  // again: nothing changes
        let query = RecordQuery(recordType: "Item", predicates: [.init("color", .equals, .string("gold"))], sortDescriptors: [QuerySortDescriptor(key: "rank", ascending: false)])
        let before = try await db.records(matching: query)
        try db.close()

        let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
        #expect(try reopened.indexDeclarations() == [IndexDeclaration(recordType: "Item", key: "color")])
        let after = try await reopened.records(matching: query)
        #expect(after.names == before.names)
        #expect(after.recordsExamined == 10)
        _ = try await reopened.save(queryRecord("r999", ["color": .string("gold"), "rank": .int64(999)]))
        let updated = try await reopened.records(matching: query)
        #expect(updated.names.first == "r999")
        #expect(updated.recordsExamined == 11)
        // A zone created after the index has it too.
        let zone = ZoneID(zoneName: "Later")
        try await reopened.createZone(zone)
        try await reopened.saveAll((0..<20).map { queryRecord("z\($0)", zone: zone, ["color": .string(Self.colors[$0 % 10])]) })
        let inZone = try await reopened.records(matching: query, inZoneWith: zone)
        #expect(inZone.names == ["z15", "z5"], "no rank: ties by name")
        #expect(inZone.recordsExamined == 2)
        try reopened.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func createIndexRefusesBadNames(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        await expectError(.invalidArguments) { try await db.createIndex(recordType: "_Item", key: "color") }
        await expectError(.invalidArguments) { try await db.createIndex(recordType: "Item", key: "no spaces") }
        try await db.createIndex(recordType: "Item", key: "modificationDate")
        try db.removeTemporaryDirectory()
    }
}
