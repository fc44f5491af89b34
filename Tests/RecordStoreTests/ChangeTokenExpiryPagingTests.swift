import Foundation
@testable import RecordStore
import Testing

/// The pages of a fetch from nil chain past a compaction's expiry offset (FORMAT.md §11.1): an
/// initial sync that pages through a zone whose compaction dropped deletes completes, as long
/// as no compaction drops deletes while it pages; one that does expires the next page's token,
/// since a delete it dropped may be of a record an earlier page handed out.
///
/// (Before the drop stamp, the first page's token lay below the expiry offset and the second
/// page was refused, so such a sync never completed — found by the crash harness once
/// compactions joined its workload.)
@Suite struct ChangeTokenExpiryPagingTests {
    private let zone = ZoneID.default
    private func id(_ name: String) -> RecordID { RecordID(recordName: name, zoneID: zone) }

    /// The record names a fetch from `token`, page by page (`limit` a page), reports as changed
    /// and as deleted.
    private func pages(
        _ database: Database, from token: ServerChangeToken? = nil, limit: Int = 2
    ) async throws -> (changed: [String], deleted: [String], token: ServerChangeToken) {
        var changed: [String] = []
        var deleted: [String] = []
        var token = token
        var more = true
        while more {
            let page = try await database.fetchZoneChanges(in: zone, since: token, resultsLimit: limit)
            changed += page.changedRecords.map(\.recordID.recordName)
            deleted += page.deletions.map(\.recordID.recordName)
            token = page.changeToken
            more = page.moreComing
        }
        return (changed, deleted, try #require(token))
    }

    /// Saves r0…r5, deletes r5 and compacts with no retention: the expiry offset is 7, past
    /// every record.
    private func saveSixDropR5(_ database: Database) async throws {
        for index in 0..<6 { _ = try await database.save(makeRecord("r\(index)", zone: zone)) }
        try await database.delete(id("r5"))
        try await database.compact(zone: zone, tombstoneRetention: .zero)
    }

    @Test("a fetch from nil, page by page, reads a zone whose compaction dropped a delete past its first page", arguments: StoreKind.compactable)
    func pagedFetchFromNilAcrossExpiry(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await saveSixDropR5(database)
            #expect(try database.zone(zone).partition.expiryOffset == 7)

            let whole = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(whole.changedRecords.map(\.recordID.recordName).sorted() == ["r0", "r1", "r2", "r3", "r4"])
            let paged = try await pages(database)
            #expect(paged.changed.sorted() == ["r0", "r1", "r2", "r3", "r4"])
            #expect(paged.deleted.isEmpty)
        }
    }

    @Test("a compaction that drops a delete between two pages expires the next page's token; from nil then pages through", arguments: StoreKind.compactable)
    func dropBetweenPagesExpires(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await saveSixDropR5(database)

            let first = try await database.fetchZoneChanges(in: zone, since: nil, resultsLimit: 2)
            #expect(first.changedRecords.map(\.recordID.recordName) == ["r0", "r1"] && first.moreComing)
            // r1, handed out by the first page, is deleted and its delete dropped: the next page
            // from the first page's token would never say so.
            try await database.delete(id("r1"))
            try await database.compact(zone: zone, tombstoneRetention: .zero)
            await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: first.changeToken, resultsLimit: 2) }

            let again = try await pages(database)
            #expect(again.changed.sorted() == ["r0", "r2", "r3", "r4"])
        }
    }

    @Test("a compaction that drops no delete leaves the pages chaining below the expiry offset", arguments: StoreKind.compactable)
    func compactionWithoutDropsKeepsPaging(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            try await saveSixDropR5(database)
            let sequence = try database.zone(zone).partition.dropSequence

            let first = try await database.fetchZoneChanges(in: zone, since: nil, resultsLimit: 2)
            var edited = try await database.record(for: id("r0"))
            edited["n"] = .int64(1)
            _ = try await database.save(edited)
            try await database.delete(id("r4"))
            // Removes r0's first save; r4's delete is within its retention, kept.
            try await database.compact(zone: zone, tombstoneRetention: .seconds(3600))
            #expect(try database.zone(zone).partition.dropSequence == sequence)

            let rest = try await pages(database, from: first.changeToken)
            #expect(rest.changed.sorted() == ["r0", "r2", "r3"])
            #expect(rest.deleted == ["r4"])
        }
    }

    @Test("a token from before a compaction dropped a delete it needs is refused, stamped or not; at the expiry offset it is answered")
    func tokensAroundTheExpiryOffset() async throws {
        try await withTemporaryDatabase(.files) { database in
            _ = try await database.modifyRecords(saving: (0..<4).map { makeRecord("r\($0)", zone: zone) }, deleting: [])
            let before = try await database.fetchZoneChanges(in: zone, since: nil).changeToken
            try await database.delete(id("r1"))
            try await database.compact(zone: zone, tombstoneRetention: .zero)
            let partition = try database.zone(zone).partition
            let sequence = partition.dropSequence
            #expect(sequence == 2 && partition.expiryOffset == 5)

            await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: before) }
            // A token without a stamp (as every token was before stamps) below the expiry offset:
            // refused; at it: answered.
            let unstamped = { (offset: Int64) in
                TokenContent.zone(
                    .init(zoneName: zone.zoneName, position: ZonePosition(incarnation: try database.zone(zone).incarnation, offset: offset)),
                    dropStamp: nil
                ).encode(storeID: database.storeID)
            }
            await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: try unstamped(4)) }
            #expect(try await database.fetchZoneChanges(in: zone, since: try unstamped(5)).changedRecords.isEmpty)
            // A stamp of the current sequence below the expiry offset: answered, from that offset.
            let stamped = TokenContent.zone(
                .init(zoneName: zone.zoneName, position: ZonePosition(incarnation: try database.zone(zone).incarnation, offset: 2)),
                dropStamp: sequence
            ).encode(storeID: database.storeID)
            #expect(try await database.fetchZoneChanges(in: zone, since: stamped).changedRecords.map(\.recordID.recordName) == ["r2", "r3"])
        }
    }

    /// Compaction removed the batches that held r0's save and its dropped delete, so the log
    /// now starts past the token; the read would start there, and say nothing of the delete.
    @Test("a token below the log start, from before a dropped delete, is refused: the read starting at the log start would miss it")
    func tokenBelowTheLogStart() async throws {
        try await withTemporaryDatabase(.memory) { database in
            _ = try await database.save(makeRecord("r0", zone: zone))
            let holder = try await database.fetchZoneChanges(in: zone, since: nil)
            try await database.delete(id("r0"))
            _ = try await database.save(makeRecord("r1", zone: zone))
            try await database.compact(zone: zone, tombstoneRetention: .zero)
            let partition = try database.zone(zone).partition
            #expect(partition.startOffset == 2 && partition.expiryOffset == 2)
            await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: holder.changeToken) }
        }
    }

    @Test("a token with a drop stamp no store hands out (odd) is malformed")
    func oddStampIsMalformed() async throws {
        try await withTemporaryDatabase(.files) { database in
            _ = try await database.save(makeRecord("r0", zone: zone))
            let token = TokenContent.zone(
                .init(zoneName: zone.zoneName, position: ZonePosition(incarnation: try database.zone(zone).incarnation, offset: 0)),
                dropStamp: 3
            ).encode(storeID: database.storeID)
            await expectError(.invalidArguments) { _ = try await database.fetchZoneChanges(in: zone, since: token) }
        }
    }

    /// A reader beside the writer keeps the segments it opened, and answers from them, until it
    /// next reads something new; then it finds the writer's compaction and opens the zone again.
    @Test("a reader beside the writer pages from nil across a compaction the writer ran after the reader opened")
    func readerPagesAfterWritersCompaction() async throws {
        try await withStoreDirectory { path in
            let writer = try await Database(directory: path, compaction: .manual)
            for index in 0..<6 { _ = try await writer.save(makeRecord("r\(index)", zone: zone)) }
            let reader = try await Database(directory: path, readOnly: true)
            let early = try await reader.fetchZoneChanges(in: zone, since: nil, resultsLimit: 2)

            try await writer.delete(id("r1"))
            try await writer.delete(id("r5"))
            try await writer.compact(zone: zone, tombstoneRetention: .zero)
            _ = try await writer.save(makeRecord("r6", zone: zone))
            try await reader.refresh()
            #expect(try reader.zone(zone).partition.dropSequence == writer.zone(zone).partition.dropSequence)
            // The reader's first page handed out r1, whose delete is gone.
            await expectError(.changeTokenExpired) { _ = try await reader.fetchZoneChanges(in: zone, since: early.changeToken) }
            let paged = try await pages(reader)
            #expect(paged.changed.sorted() == ["r0", "r2", "r3", "r4", "r6"])
            // Its tokens chain at the writer too, and the other way round.
            let first = try await reader.fetchZoneChanges(in: zone, since: nil, resultsLimit: 2)
            let rest = try await pages(writer, from: first.changeToken)
            #expect((first.changedRecords.map(\.recordID.recordName) + rest.changed).sorted() == ["r0", "r2", "r3", "r4", "r6"])
            let fromWriter = try await writer.fetchZoneChanges(in: zone, since: nil, resultsLimit: 2)
            let restAtReader = try await pages(reader, from: fromWriter.changeToken)
            #expect((fromWriter.changedRecords.map(\.recordID.recordName) + restAtReader.changed).sorted() == ["r0", "r2", "r3", "r4", "r6"])
            try reader.close()
            try writer.close()
        }
    }
}
