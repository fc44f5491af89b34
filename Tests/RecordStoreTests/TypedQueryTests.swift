import Foundation
@testable import RecordStore
import Testing
import TuningSupport

@Suite("Typed records: query builder", .everyTuning)
struct TypedQueryTests {
    let zone = ZoneID(zoneName: "Typed")

    /// Saves two folders and `count` notes spread over them, returns the notes as saved.
    private func seed(_ database: Database, count: Int = 12) async throws -> [TypedNote] {
        _ = try await database.createZone(zone)
        for folder in ["inbox", "archive"] {
            _ = try await database.save(try TypedFolder(id: folder, name: folder).encodedRecord(in: zone))
        }
        var notes: [TypedNote] = []
        for index in 0..<count {
            let note = TypedNote(
                id: String(format: "n%02d", index), folder: index.isMultiple(of: 2) ? "inbox" : "archive",
                title: index.isMultiple(of: 3) ? "Apple \(index)" : "Banana \(index)",
                tags: index.isMultiple(of: 4) ? ["work", "home"] : ["home"], rank: index)
            let saved = try await database.save(try note.encodedRecord(in: zone))
            notes.append(try TypedNote(decoding: saved))
        }
        return notes
    }

    @Test("filters on a reference field, a prefix, comparisons, in and list membership", arguments: StoreKind.allCases)
    func filters(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let notes = try await seed(database)
            let inbox = try await Query<TypedNote>().filter(.folder, equals: "inbox").sorted(by: .rank).fetch(from: database, in: zone)
            #expect(inbox.models == notes.filter { $0.folder == "inbox" })
            #expect(inbox.failures.isEmpty)

            let apples = try await Query<TypedNote>().filter(.title, beginsWith: "Apple").filter(.rank, greaterThan: 2)
                .filter(.rank, lessThanOrEquals: 9).sorted(by: .rank).fetch(from: database, in: zone)
            #expect(apples.models.map(\.rank) == [3, 6, 9])

            let some = try await Query<TypedNote>().filter(.rank, anyIn: [1, 5, 7, 100]).sorted(by: .rank, ascending: false)
                .fetch(from: database, in: zone)
            #expect(some.models.map(\.rank) == [7, 5, 1])

            let work = try await Query<TypedNote>().filter(.tags, contains: "work").filter(.folder, anyIn: ["inbox"])
                .sorted(by: .rank).fetch(from: database, in: zone)
            #expect(work.models.map(\.rank) == [0, 4, 8])

            let notFirst = try await Query<TypedNote>().filter(.rank, notEquals: 0).filter(.rank, lessThan: 3)
                .filter(.rank, greaterThanOrEquals: 1).sorted(by: .rank).fetch(from: database, in: zone)
            #expect(notFirst.models.map(\.rank) == [1, 2])

            let words = try await Query<TypedNote>().matching(words: "banana 5").fetch(from: database, in: zone)
            #expect(words.models.map(\.rank) == [5])
        }
    }

    @Test("sorts by the system dates through the model's fields", arguments: StoreKind.allCases)
    func systemDateSorts(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let notes = try await seed(database, count: 6)
            let newestFirst = try await Query<TypedNote>().sorted(by: .modifiedAt, ascending: false).fetch(from: database, in: zone)
            let dates = newestFirst.models.compactMap(\.modifiedAt)
            #expect(dates.count == 6)
            #expect(dates == dates.sorted(by: >))
            let first = try #require(notes.first?.createdAt)
            let later = try await Query<TypedNote>().filter(.createdAt, greaterThan: first).fetch(from: database, in: zone)
            #expect(later.models.allSatisfy { ($0.createdAt ?? first) > first })
        }
    }

    @Test("limit and cursors page through every match once, in order", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let notes = try await seed(database, count: 11)
            let query = Query<TypedNote>().sorted(by: .rank, ascending: false).limit(4)
            var page = try await query.fetch(from: database, in: zone)
            var pages = [page.models.count]
            var seen = page.models
            while let cursor = page.cursor {
                page = try await query.fetch(continuing: cursor, from: database)
                pages.append(page.models.count)
                seen += page.models
            }
            #expect(pages == [4, 4, 3])
            #expect(seen == notes.sorted { $0.rank > $1.rank })
        }
    }

    @Test("only the model's fields are fetched", arguments: StoreKind.allCases)
    func desiredKeys(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await seed(database, count: 2)
            var extra = try await database.record(for: RecordID(recordName: "n00", zoneID: zone))
            extra["secret"] = .string("not for the model")
            _ = try await database.save(extra)
            #expect(TypedNote.desiredKeys == ["folder", "title", "tags", "rank"])
            let page = try await Query<TypedNote>().fetch(from: database, in: zone)
            #expect(page.fetchedRecords.count == 2)
            for record in page.fetchedRecords {
                #expect(Set(record.allKeys()).isSubset(of: ["folder", "title", "tags", "rank"]))
            }
            #expect(page.models.count == 2)
        }
    }

    @Test("a filter on the identifier or a value that cannot be mapped fails the fetch", arguments: StoreKind.allCases)
    func unmappable(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await seed(database, count: 1)
            await #expect(throws: RecordMappingError.self) {
                try await Query<TypedNote>().filter(.id, equals: "n00").fetch(from: database, in: zone)
            }
            await #expect(throws: RecordMappingError.self) {
                try await Query<TypedNote>().sorted(by: .id).fetch(from: database, in: zone)
            }
            await #expect(throws: RecordMappingError.self) {
                try await Query<TypedNote>().filter(.title, equals: Optional<String>.none).fetch(from: database, in: zone)
            }
        }
    }

    @Test("a record that does not decode is a failed result, not a failed page", arguments: StoreKind.allCases)
    func perRecordResults(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await seed(database, count: 3)
            var broken = try await database.record(for: RecordID(recordName: "n01", zoneID: zone))
            broken["rank"] = .string("one")
            _ = try await database.save(broken)
            let page = try await Query<TypedNote>().sorted(by: .title).fetch(from: database, in: zone)
            #expect(page.matchResults.count == 3)
            #expect(page.models.count == 2)
            #expect(page.failures.map(\.id.recordName) == ["n01"])
            #expect(page.failures.first?.error as? RecordMappingError
                == .typeMismatch(field: "rank", expected: "an int64", found: .string))
        }
    }

    @Test("debug() logs the query and what it returned", arguments: StoreKind.allCases)
    func debugLogs(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await seed(database, count: 8)
            let capture = LogCapture()
            let query = Query<TypedNote>().filter(.folder, equals: "inbox").filter(.title, beginsWith: "Apple")
                .sorted(by: .modifiedAt, ascending: false).limit(1).debug(to: capture.logger)
            let page = try await query.fetch(from: database, in: zone)
            let messages = capture.messages
            #expect(messages.count == 2)
            #expect(messages.first?.contains("query Note where folder equals →Typed/inbox and title beginsWith \"Apple\"") == true)
            #expect(messages.first?.contains("sorted by modificationDate descending, limit 1") == true)
            let name = try #require(page.models.first?.id)
            #expect(messages.last == "info query Note returned 1 record: \(name); more: yes")
            _ = try await query.fetch(continuing: try #require(page.cursor), from: database)
            #expect(capture.messages.count == 4)
            #expect(capture.messages.last == "info query Note returned 0 records; more: no"
                || capture.messages.last?.hasSuffix("more: no") == true)
            let silent = LogCapture()
            _ = try await Query<TypedNote>().fetch(from: database, in: zone)
            #expect(silent.messages.isEmpty)
        }
    }
}
