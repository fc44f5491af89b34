import Foundation
import RecordStore
import Testing

/// A known fault, found by the crash harness once compactions joined its workload: a fetch from
/// nil, page by page, of a zone whose compaction dropped a delete beyond the first page cannot
/// finish. The first page's token lies below the zone's expiry offset (FORMAT.md §11.1), so the
/// next page is refused with `changeTokenExpired`, and starting again from nil meets the same
/// page — an initial sync that pages through such a zone never completes. Fetching in one page
/// (no `resultsLimit`) works.
///
/// Stamping the token with the expiry offset its fetch began at is not enough: the expiry
/// offset is written before a compaction's swap removes the deletes below it, so a page read in
/// between can hand out a record whose delete is then dropped without the offset moving. The
/// fix wants state the store does not keep yet; until then this test records the issue, and
/// fails once the fetch finishes (remove `withKnownIssue` then).
@Suite struct ChangeTokenExpiryPagingTests {
    @Test("a fetch from nil, page by page, reads a zone whose compaction dropped a delete past its first page", arguments: StoreKind.allCases)
    func pagedFetchFromNilAcrossExpiry(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID.default
            for index in 0..<6 { _ = try await database.save(makeRecord("r\(index)", zone: zone)) }
            try await database.delete(RecordID(recordName: "r5", zoneID: zone))
            try await database.compact(zone: zone, tombstoneRetention: .zero)

            let whole = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(whole.changedRecords.map(\.recordID.recordName).sorted() == ["r0", "r1", "r2", "r3", "r4"])
            await withKnownIssue("the second page's token lies below the expiry offset and is refused as expired") {
                var names: [String] = []
                var token: ServerChangeToken?
                var more = true
                while more {
                    let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: 2)
                    names += page.changedRecords.map(\.recordID.recordName)
                    token = page.changeToken
                    more = page.moreComing
                }
                #expect(names.sorted() == ["r0", "r1", "r2", "r3", "r4"])
            }
        }
    }
}
