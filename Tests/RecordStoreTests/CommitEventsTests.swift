import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TuningSupport

/// How one commit's events are written: their headers and time.
@Suite(.everyTuning) struct CommitEventsTests {
    @Test("the events of one commit carry one timestamp (a commit is one atomic event in time) and the usual headers", arguments: StoreKind.allCases)
    func oneTimestampPerCommit(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(makeRecord("parent", type: "Folder"))
            var records = (0..<300).map { makeRecord("note-\($0)", ["parent": ref("parent")]) }
            records += (0..<20).map { makeRecord("other-\($0)", type: "Other") }
            _ = try await database.modifyRecords(saving: records, deleting: [])
            _ = try await database.modifyRecords(saving: [], deleting: [RecordID(recordName: "parent")])
            let events = try database.log.partition(named: ZoneID.default.zoneName).records(from: 1, to: nil, limit: .max)
            #expect(events.count == 320 + 301)
            let saves = events.prefix(320), deletes = events.dropFirst(320)
            #expect(Set(saves.map(\.timestamp)).count == 1)
            #expect(Set(deletes.map(\.timestamp)).count == 1)
            // Each a new record's first event: `previous` −1 (FORMAT.md §10.1).
            let first = LogHeader(key: StoredEvent.previousHeader, value: [UInt8](repeating: 0xFF, count: 8))
            for event in saves {
                let type = event.keyString?.hasPrefix("note-") == true ? "Note" : "Other"
                #expect(event.headers == StoredEvent.headers(.save, recordType: type, changeTag: "\(event.header(StoredEvent.changeTagHeader)?.stringValue ?? "?")") + [first])
                #expect(event.header(StoredEvent.changeTagHeader)?.stringValue?.hasSuffix("-" + String(event.offset, radix: 36)) == true)
            }
            // Each delete names its record's save.
            let saved = Dictionary(uniqueKeysWithValues: saves.map { ($0.keyString ?? "", $0.offset) } + [("parent", Int64(0))])
            for event in deletes {
                let type = event.keyString == "parent" ? "Folder" : "Note"
                #expect(Array(event.headers.dropLast()) == StoredEvent.headers(.delete, recordType: type))
                #expect(StoredEvent(event).previous == saved[event.keyString ?? ""].map(PreviousEvent.at))
                #expect(event.isTombstone)
            }
        }
    }

    @Test("a small commit after a large one (its buffers reused) holds its own events only, and reopens the same")
    func smallCommitAfterLargeOne() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path)
            let large = (0..<400).map { makeRecord("large-\($0)", ["text": .string(String(repeating: "\($0 % 10)", count: 2_000))]) }
            _ = try await database.modifyRecords(saving: large, deleting: [])
            let small = [makeRecord("small", ["text": .string("tiny")])]
            _ = try await database.modifyRecords(saving: small, deleting: [])
            _ = try await database.modifyRecords(saving: [makeRecord("large-0", ["text": .string("edited")])], deleting: [], savePolicy: .allKeys)
            let partition = try database.log.partition(named: ZoneID.default.zoneName)
            let batches = try partition.batches(from: 0, maxBytes: .max)
            #expect(batches.map { $0.header.recordCount } == [400, 1, 1])
            let smallBatch = try #require(batches.dropFirst().first)
            #expect(smallBatch.bytes.count < 300, "the small batch is \(smallBatch.bytes.count) bytes")
            #expect(try smallBatch.records().map(\.keyString) == ["small"])
            try database.close()

            let reopened = try await Database(directory: path)
            #expect(try await reopened.record(for: RecordID(recordName: "small"))["text"] == .string("tiny"))
            #expect(try await reopened.record(for: RecordID(recordName: "large-0"))["text"] == .string("edited"))
            #expect(try await reopened.record(for: RecordID(recordName: "large-399"))["text"] == .string(String(repeating: "9", count: 2_000)))
            try reopened.close()
        }
    }
}
