import Foundation
@testable import RecordStore
import Testing

/// Paging with cursors: every record once, in order, while writes continue.
@Suite struct QueryCursorTests {
    @Test(arguments: StoreKind.allCases, [false, true]) func pagesVisitEveryRecordOnceInOrder(kind: StoreKind, indexed: Bool) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll((0..<250).map { queryRecord(String(format: "r%03d", $0), ["score": .int64(Int64($0 % 13))]) })
        if indexed { try await db.createIndex(recordType: "Item", key: "score") }
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "score", ascending: false)])
        let expected = try await db.records(matching: query, resultsLimit: 1000).names
        #expect(expected.count == 250)
        let pages = try await db.allPages(query, limit: 7)
        #expect(pages.count == 36)
        #expect(pages.allSatisfy { $0.matchResults.count <= 7 })
        #expect(pages.flatMap(\.names) == expected)
        #expect(Set(pages.flatMap(\.names)).count == 250)
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases, [false, true]) func cursorContinuesExactlyWhileRecordsChange(kind: StoreKind, indexed: Bool) async throws {
        let db = try await openTemporaryDatabase(kind)
        var ranks: [String: Int64] = [:]
        for index in 0..<40 { ranks[String(format: "r%02d", index)] = Int64(index) }
        try await db.saveAll(ranks.map { queryRecord($0.key, ["rank": .int64($0.value)]) })
        if indexed { try await db.createIndex(recordType: "Item", key: "rank") }
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "rank")])
        let first = try await db.records(matching: query, resultsLimit: 10)
        #expect(first.names == (0..<10).map { String(format: "r%02d", $0) })
        let cursor = try #require(first.cursor)

        // Between pages: inserts before, at and after the cursor, the last returned record
        // deleted, records moved across the cursor both ways, one touched in place.
        let changes: [String: Int64] = ["new-before": 5, "r09a": 9, "new-after": 25, "r30": -1, "r03": 35, "r15": 15]
        try await db.saveAll(changes.map { queryRecord($0.key, ["rank": .int64($0.value), "touched": .bool(true)]) })
        _ = try await db.modifyRecords(saving: [], deleting: [RecordID(recordName: "r09"), RecordID(recordName: "r20")])
        ranks.merge(changes) { _, new in new }
        ranks["r09"] = nil
        ranks["r20"] = nil

        var rest: [String] = []
        var next: QueryCursor? = cursor
        while let current = next {
            let page = try await db.records(continuingMatchFrom: current, resultsLimit: 10)
            rest += page.names
            next = page.cursor
        }
        let after = ranks.filter { $0.value > 9 || ($0.value == 9 && ByteString($0.key) > ByteString("r09")) }
        let expected = after.sorted { ($0.value, ByteString($0.key)) < ($1.value, ByteString($1.key)) }.map(\.key)
        #expect(rest == expected)
        #expect(rest.contains("r09a") && rest.contains("new-after") && rest.contains("r15") && rest.contains("r03"))
        #expect(!rest.contains("new-before") && !rest.contains("r30") && !rest.contains("r20") && !rest.contains("r09"))
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func cursorSurvivesItsBytesWithAwkwardSortValues(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        let values: [FieldValue?] = [
            .double(.nan), .double(.infinity), .double(-.infinity), .double(-0.0), .int64(.max), .int64(.min), .double(0.1),
            .string("é"), .string(""), .date(Date(timeIntervalSince1970: 1_234.567)), .bool(false), .bytes([0, 255]),
            .list([.int64(1)]), .location(Location(latitude: -1, longitude: 2)), nil,
        ]
        try await db.saveAll(values.enumerated().map { index, value in
            var record = queryRecord("r\(index)")
            record["v"] = value
            return record
        })
        let query = RecordQuery(recordType: "Item", sortDescriptors: [QuerySortDescriptor(key: "v"), QuerySortDescriptor(key: "v", ascending: false)])
        let expected = try await db.records(matching: query).names
        var names: [String] = []
        var page = try await db.records(matching: query, resultsLimit: 1)
        while true {
            names += page.names
            guard let cursor = page.cursor else { break }
            let restored = try QueryCursor(data: cursor.data)
            #expect(restored == cursor)
            page = try await db.records(continuingMatchFrom: restored, resultsLimit: 1)
        }
        #expect(names == expected)
        #expect(names.count == values.count)
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func malformedCursorBytesAreRefused(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        try await db.saveAll((0..<3).map { queryRecord("r\($0)") })
        let cursor = try #require(try await db.records(matching: RecordQuery(recordType: "Item"), resultsLimit: 1).cursor)
        for bytes in [Data(), Data("garbage".utf8), cursor.data.dropLast(3), Data(cursor.data.reversed())] {
            #expect(throws: RecordStoreError.self) { try QueryCursor(data: bytes) }
        }
        let json = String(decoding: cursor.data, as: UTF8.self)
        let future = Data(json.replacingOccurrences(of: "\"version\":1", with: "\"version\":99").utf8)
        do {
            _ = try QueryCursor(data: future)
            Issue.record("a cursor of another version decoded")
        } catch {
            #expect(error.code == .invalidArguments)
            #expect(error.message.contains("version"))
        }
        try db.removeTemporaryDirectory()
    }

    @Test(arguments: StoreKind.allCases) func cursorIntoADeletedZoneFails(kind: StoreKind) async throws {
        let db = try await openTemporaryDatabase(kind)
        let zone = ZoneID(zoneName: "Gone")
        try await db.createZone(zone)
        try await db.saveAll((0..<3).map { queryRecord("r\($0)", zone: zone) })
        let cursor = try #require(try await db.records(matching: RecordQuery(recordType: "Item"), inZoneWith: zone, resultsLimit: 1).cursor)
        try await db.deleteZone(zone)
        await expectError(.zoneNotFound) { _ = try await db.records(continuingMatchFrom: cursor) }
        try db.removeTemporaryDirectory()
    }
}
