import Foundation
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// fetchZoneChanges with callbacks hands out, read in place, exactly the changes the paged
/// fetch returns as records: same records in the same order, same deletions, same tokens.
@Suite(.everyTuning) struct ZoneChangeStreamTests {
    private let zone = ZoneID(zoneName: "Z")

    /// A random history of batches with updates, deletes and `.deleteSelf` cascades.
    private func randomHistory(_ database: Database, seed: UInt64) async throws {
        try await database.createZone(zone)
        var generator = SeededGenerator(seed: seed)
        try await writeRandomHistory(database, zone: zone, names: (0..<10).map { "r\($0)" }, steps: 60, using: &generator)
    }

    @Test("streamed changes are the pages' changes: records, deletions, order, tokens, moreComing", arguments: StoreKind.allCases, [1, 2, 3, nil] as [Int?])
    func sameAsPages(kind: StoreKind, limit: Int?) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await randomHistory(database, seed: UInt64(limit ?? 99) &* 104_729)
            var token: ServerChangeToken?
            var pages = 0
            while pages < 1000 {
                pages += 1
                let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: limit)
                var records: [Record] = []
                var deletions: [ZoneChanges.Deletion] = []
                let end = try await database.fetchZoneChanges(
                    in: zone, since: token, resultsLimit: limit,
                    recordChanged: { records.append($0.materialized()) }, recordDeleted: { deletions.append($0) })
                #expect(records == page.changedRecords)
                #expect(records.map(\.recordChangeTag) == page.changedRecords.map(\.recordChangeTag))
                #expect(deletions == page.deletions)
                #expect(end.changeToken == page.changeToken && end.moreComing == page.moreComing)
                token = end.changeToken
                if !end.moreComing { break }
            }
            #expect(pages > (limit == nil ? 0 : 1))
        }
    }

    @Test("a callback that throws ends the fetch with its error; the next fetch hands out the same changes", arguments: StoreKind.allCases)
    func callbackErrors(kind: StoreKind) async throws {
        struct Stop: Error {}
        try await withTemporaryDatabase(kind) { database in
            try await randomHistory(database, seed: 7)
            var seen: [String] = []
            await #expect(throws: Stop.self) {
                _ = try await database.fetchZoneChanges(in: zone, since: nil, recordChanged: { record in
                    seen.append(record.recordID.recordName)
                    if seen.count == 2 { throw Stop() }
                }, recordDeleted: { _ in })
            }
            #expect(seen.count == 2)
            var again: [String] = []
            _ = try await database.fetchZoneChanges(in: zone, since: nil, recordChanged: { again.append($0.recordID.recordName) }, recordDeleted: { _ in })
            #expect(Array(again.prefix(2)) == seen)
        }
    }

    @Test("tokens are checked as the paged fetch checks them", arguments: StoreKind.allCases)
    func badTokens(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await randomHistory(database, seed: 3)
            let other = ZoneID(zoneName: "Other")
            try await database.createZone(other)
            let otherToken = try await database.fetchZoneChanges(in: other, since: nil).changeToken
            let databaseToken = try await database.fetchDatabaseChanges(since: nil).changeToken
            for token in [otherToken, databaseToken] {
                await #expect(throws: RecordStoreError.self) {
                    _ = try await database.fetchZoneChanges(in: zone, since: token, recordChanged: { _ in }, recordDeleted: { _ in })
                }
            }
            await #expect(throws: RecordStoreError.self) {
                _ = try await database.fetchZoneChanges(in: ZoneID(zoneName: "Missing"), since: nil, recordChanged: { _ in }, recordDeleted: { _ in })
            }
        }
    }
}
