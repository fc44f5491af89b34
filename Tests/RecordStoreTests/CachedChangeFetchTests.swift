import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TuningSupport

/// A change fetch checks each save it hands out once per batch the log's cache keeps
/// (`ChangeEventCheck`): fetched again from the cache, the changes must be the same records,
/// and a save that does not decode must still be refused every time.
@Suite(.everyTuning) struct CachedChangeFetchTests {
    private let zone = ZoneID(zoneName: "Notes")

    /// Every field kind, system fields, a deletion and a record saved twice, in batches of one and of several.
    private func writeHistory(_ database: Database) async throws {
        _ = try await database.createZone(zone)
        let fields: [String: FieldValue] = [
            "text": .string("héllo ✓"), "count": .int64(-7), "ratio": .double(0.25), "done": .bool(true),
            "when": .date(Date(timeIntervalSince1970: 1_700_000_000.123)), "blob": .bytes([0, 255, 7]),
            "folder": ref("f1", zone: zone, .none), "place": .location(Location(latitude: 1.5, longitude: -2.5)),
            "tags": .list([.string("a"), .string("b")]),
        ]
        _ = try await database.save(makeRecord("f1", zone: zone, type: "Folder", ["name": .string("Inbox")]))
        _ = try await database.modifyRecords(
            saving: (1...20).map { makeRecord("n\($0)", zone: zone, fields) }, deleting: [])
        var n3 = try #require(try await database.records(for: [RecordID(recordName: "n3", zoneID: zone)]).values.first?.get())
        n3["text"] = .string("changed")
        _ = try await database.save(n3)
        try await database.delete(RecordID(recordName: "n4", zoneID: zone))
    }

    /// The changes since nil, handed out in place and kept as records and deletions.
    private func streamed(_ database: Database) async throws -> (changed: [Record], deleted: [String]) {
        var changed: [Record] = []
        var deleted: [String] = []
        _ = try await database.fetchZoneChanges(
            in: zone, since: nil, recordChanged: { changed.append($0.materialized()) },
            recordDeleted: { deleted.append($0.recordID.recordName) })
        return (changed, deleted)
    }

    @Test("changes fetched again from the cache are the records fetched the first time, in both forms", arguments: StoreKind.allCases)
    func sameRecordsFromCache(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await writeHistory(database)
            let stored = try await database.records(for: (1...20).map { RecordID(recordName: "n\($0)", zoneID: zone) } + [RecordID(recordName: "f1", zoneID: zone)])
            let expected = Set(stored.values.compactMap { try? $0.get() })
            for round in 1...3 {
                let page = try await database.fetchZoneChanges(in: zone, since: nil)
                #expect(Set(page.changedRecords) == expected, "round \(round)")
                #expect(page.deletions.map(\.recordID.recordName) == ["n4"])
                let (changed, deleted) = try await streamed(database)
                #expect(changed == page.changedRecords, "round \(round)")
                #expect(deleted == ["n4"])
                let keys = try await database.fetchZoneChanges(in: zone, since: nil, desiredKeys: ["text"])
                #expect(keys.changedRecords.map { $0["text"] } == page.changedRecords.map { $0["text"] })
                #expect(keys.changedRecords.allSatisfy { $0["count"] == nil })
            }
        }
    }

    @Test("pages of a few changes, each starting inside a batch, are the same pages fetched again and cover every record", arguments: StoreKind.allCases)
    func pagesFromCache(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await writeHistory(database)
            var rounds: [[String]] = []
            for _ in 1...2 {
                var names: [String] = []
                var token: ServerChangeToken?
                var more = true
                while more {
                    let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: 3)
                    names += page.changedRecords.map(\.recordID.recordName) + page.deletions.map(\.recordID.recordName)
                    token = page.changeToken
                    more = page.moreComing
                }
                rounds.append(names)
            }
            #expect(rounds[0] == rounds[1])
            #expect(Set(rounds[0]) == Set(["f1"] + (1...20).map { "n\($0)" }))
        }
    }

    @Test("a save whose value does not decode is refused on every fetch, after the changes before it, cached or not", arguments: StoreKind.allCases)
    func badValueEveryTime(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.createZone(zone)
            let saved = try await database.save(makeRecord("n1", zone: zone, ["text": .string("hello")]))
            let value = try RecordCodec.encode(saved)
            // One batch: a good save, then the same bytes with one byte too many, then another good one.
            var batch = RecordBatchBuilder()
            let headers = StoredEvent.headers(.save, recordType: "Note", changeTag: saved.recordChangeTag)
            batch.append(key: "n2", value: value, headers: headers)
            batch.append(key: "n3", value: value + [0], headers: headers)
            batch.append(key: "n5", value: value, headers: headers)
            _ = try await database.zone(zone).partition.append(batch)
            for round in 1...3 {
                var handedOut: [String] = []
                await #expect(throws: RecordDecodingError(.trailingBytes(1), at: value.count), "round \(round)") {
                    _ = try await database.fetchZoneChanges(
                        in: zone, since: nil, recordChanged: { handedOut.append($0.recordID.recordName) }, recordDeleted: { _ in })
                }
                #expect(handedOut == ["n1", "n2"], "round \(round)")
                await #expect(throws: RecordDecodingError(.trailingBytes(1), at: value.count), "round \(round)") {
                    _ = try await database.fetchZoneChanges(in: zone, since: nil)
                }
            }
        }
    }
}
