import Foundation
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// Random histories and queries: a database with indexes answers exactly as one without.
@Suite(.everyTuning) struct QueryIndexEquivalenceTests {
    static let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_000), Date(timeIntervalSince1970: -5)]

    func randomValue(for key: String, using random: inout SeededGenerator) -> FieldValue? {
        switch (key, Int.random(in: 0..<8, using: &random)) {
        case (_, 0): nil
        case ("a", let pick): [.int64(0), .int64(1), .double(1.0), .int64(2), .double(2.5), .double(-0.0), .string("1")][pick - 1]
        case ("b", let pick): [.string("x"), .string("y"), .string("z"), .string(""), .string("X"), .int64(3), .string("x")][pick - 1]
        case (_, let pick): [.bool(true), .bool(false), .date(Self.dates[0]), .date(Self.dates[1]), .date(Self.dates[2]), .double(.nan), .list([.int64(1)])][pick - 1]
        }
    }

    func randomRecord(using random: inout SeededGenerator) -> Record {
        let type = Int.random(in: 0..<6, using: &random) == 0 ? "Other" : "Item"
        var record = queryRecord("n\(Int.random(in: 0..<60, using: &random))", type: type)
        for key in ["a", "b", "c"] { record[key] = randomValue(for: key, using: &random) }
        return record
    }

    func randomQuery(using random: inout SeededGenerator) -> RecordQuery {
        var predicates: [QueryPredicate] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let key = ["a", "b", "c"].randomElement(using: &random) ?? "a"
            guard let value = randomValue(for: key, using: &random), value.kind != .list else { continue }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: predicates.append(.init(key, .in, .list([value] + [randomValue(for: key, using: &random)].compactMap { $0 }.filter { $0.kind != .list })))
            case 1 where [.string, .int64, .date].contains(value.kind): predicates.append(.init(key, .greaterThanOrEquals, value))
            default: predicates.append(.init(key, .equals, value))
            }
        }
        let sorts = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            QuerySortDescriptor(key: ["a", "b", "c"].randomElement(using: &random) ?? "a", ascending: Bool.random(using: &random))
        }
        return RecordQuery(recordType: "Item", predicates: predicates, sortDescriptors: sorts)
    }

    /// Every page's records, as (ID, fields) so that values are compared, not just names.
    func answer(_ db: Database, _ query: RecordQuery, limit: Int) async throws -> [[RecordID: [String]]] {
        try await db.allPages(query, limit: limit).map { page in
            var rows: [RecordID: [String]] = [:]
            for record in page.records { rows[record.recordID] = record.allKeys().map { "\($0)=\(String(describing: record[$0]))" } }
            return rows
        }
    }

    @Test(arguments: StoreKind.allCases, [1 as UInt64, 2, 3]) func indexedAndUnindexedAgree(kind: StoreKind, seed: UInt64) async throws {
        let plain = try await openTemporaryDatabase(kind)
        let indexed = try await openTemporaryDatabase(kind)
        try await indexed.createIndex(recordType: "Item", key: "a")
        try await indexed.createIndex(recordType: "Other", key: "a")
        var random = SeededGenerator(seed: seed)
        for round in 0..<6 {
            var batch: [RecordID: Record] = [:]
            for _ in 0..<40 {
                let record = randomRecord(using: &random)
                batch[record.recordID] = record
            }
            for db in [plain, indexed] { try await db.saveAll(Array(batch.values)) }
            let deletes = Set((0..<5).map { _ in RecordID(recordName: "n\(Int.random(in: 0..<60, using: &random))") })
                .subtracting(batch.keys)
            for db in [plain, indexed] {
                _ = try await db.modifyRecords(saving: [], deleting: Array(deletes), atomically: false)
            }
            if round == 2 {
                try await indexed.createIndex(recordType: "Item", key: "b")
                try await indexed.createIndex(recordType: "Item", key: "c")
            }
            for _ in 0..<25 {
                let query = randomQuery(using: &random)
                let limit = Int.random(in: 1...9, using: &random)
                let expected = try await answer(plain, query, limit: limit)
                let actual = try await answer(indexed, query, limit: limit)
                #expect(actual == expected, "seed \(seed) round \(round): \(query) limit \(limit)")
            }
        }
        try plain.removeTemporaryDirectory()
        try indexed.removeTemporaryDirectory()
    }
}
