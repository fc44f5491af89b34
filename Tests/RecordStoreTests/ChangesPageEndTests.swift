import Foundation
@testable import RecordStore
import Testing
import TuningSupport

/// fetchZoneChanges decodes only the latest save of each record in a page; a record saved again
/// after the page ends must still come back in the state it had inside the page.
@Suite(.everyTuning) struct ChangesPageEndTests {
    private let zone = ZoneID(zoneName: "Z")

    @Test("a record saved again after the page's end comes back as it was inside the page", arguments: StoreKind.allCases)
    func laterSaveAfterPageEnd(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            var a = try await database.save(makeRecord("a", zone: zone, type: "Note", ["v": .int64(1)]))
            let b = try await database.save(makeRecord("b", zone: zone, type: "Note"))
            let firstA = a
            a["v"] = .int64(2)
            a = try await database.save(a)

            let first = try await database.fetchZoneChanges(in: zone, since: nil, resultsLimit: 1, desiredKeys: ["v"])
            #expect(first.changedRecords == [firstA] && first.moreComing)
            let second = try await database.fetchZoneChanges(in: zone, since: first.changeToken, resultsLimit: 1)
            #expect(second.changedRecords == [b] && second.moreComing)
            let third = try await database.fetchZoneChanges(in: zone, since: second.changeToken, resultsLimit: 1)
            #expect(third.changedRecords == [a] && !third.moreComing)
            let whole = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(whole.changedRecords == [b, a], "in one page, only the latest state")
        }
    }

    @Test("values that fill, cross and exceed the page's value chunks come back byte for byte", arguments: StoreKind.allCases)
    func largeValuesAcrossChunks(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await database.createZone(zone)
            // Records from 20 kB to 1 MB, most larger than a chunk on their own, each saved twice
            // so that the page keeps both copies before decoding the latest.
            var saved: [Record] = []
            for (index, size) in [20_000, 30_000, 40_000, 400_000, 70_000, 1_040_000, 30_000].enumerated() {
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
                var record = try await database.save(makeRecord("r\(index)", zone: zone, type: "Blob", ["data": .bytes(bytes)]))
                record["data"] = .bytes(bytes.reversed())
                saved.append(try await database.save(record))
            }
            let page = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(page.changedRecords == saved)
        }
    }

    @Test("every event kind is read from its header's bytes, in place and from an allocated record")
    func kindsFromBytes() {
        for kind in StoredEvent.Kind.allCases {
            #expect(Array(kind.rawValue.utf8).withUnsafeBytes(StoredEvent.kind(named:)) == kind)
        }
        #expect(Array("sav".utf8).withUnsafeBytes(StoredEvent.kind(named:)) == nil)
        #expect(Array("saves".utf8).withUnsafeBytes(StoredEvent.kind(named:)) == nil)
        #expect([UInt8]().withUnsafeBytes(StoredEvent.kind(named:)) == nil)
    }
}
