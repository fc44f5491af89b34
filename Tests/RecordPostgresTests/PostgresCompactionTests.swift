import Foundation
import Logging
import RecordLog
import RecordPostgres
@testable import RecordStore
import Testing

/// Compaction of a database kept in PostgreSQL (FORMAT.md §14.5): cleaned batches replace a
/// zone's rows in one fenced transaction, and every node — its mirror compacted or not, behind
/// the compaction or not — serves the same records and answers the same change tokens.
@Suite(.enabled(if: TestPostgres.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct PostgresCompactionTests {
    let url = TestPostgres.url ?? ""
    let zone = ZoneID(zoneName: "Notes")

    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("compaction-\(UUID().uuidString)").path
    }

    /// Every row of the zone, checked to cover `0..<end` without a hole.
    static func rows(_ log: PostgresLog, _ zone: String) async throws -> [RecordBatch] {
        let rows = try await log.batches(of: zone, from: 0, maxBytes: .max)
        var next: Int64 = 0
        for row in rows {
            #expect(row.header.baseOffset == next, "the rows continue without a hole")
            next = row.header.lastOffset + 1
        }
        #expect(next == (try await log.heads()[zone]?.endOffset))
        return rows
    }

    /// Every record name changed since `token`, across pages.
    static func changedNames(_ database: Database, _ zone: ZoneID, since token: ServerChangeToken?) async throws -> [String] {
        var names: [String] = []
        var token = token
        var page: ZoneChanges
        repeat {
            page = try await database.fetchZoneChanges(in: zone, since: token)
            names += page.changedRecords.map(\.recordID.recordName)
            token = page.changeToken
        } while page.moreComing
        return names
    }

    @Test("a zone's rows compacted: replaced versions gone, one-note commits merged; the writing node, a fresh mirror and a token taken before all read the same, and writes go on")
    func rowsCompacted() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirror, fresh) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [mirror, fresh] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let log = cluster.log(of: name)
            let database = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
            _ = try await database.createZone(zone)
            for index in 0..<200 { _ = try await database.save(PostgresMirrorTests.note("n\(index)", "first \(index)", in: zone)) }
            let token = try await database.fetchZoneChanges(in: zone, since: nil).changeToken
            for index in 0..<50 {
                var record = try await database.record(for: RecordID(recordName: "n\(index)", zoneID: zone))
                record["title"] = .string("edited \(index)")
                _ = try await database.save(record)
            }
            try await database.delete(RecordID(recordName: "n199", zoneID: zone))
            let expected = try await PostgresMirrorTests.contents(database, zone)
            let expectedSince = try await Self.changedNames(database, zone, since: token)
            let systemBefore = try await Self.rows(log, StoredEvent.systemPartition)
            let before = try await Self.rows(log, "Notes")
            #expect(before.count == 251)

            let report = try #require(try await PostgresCompaction.compact(log, zone: "Notes", scratch: Self.scratch(), logger: Logger(label: "test")))
            #expect(report.recordsRemoved == 51, "the first versions of the 50 edited notes, and the deleted note's save")
            let after = try await Self.rows(log, "Notes")
            #expect(after.count < 10, "\(after.count) rows")
            #expect(after.reduce(0) { $0 + $1.bytes.count } * 2 < before.reduce(0) { $0 + $1.bytes.count })
            #expect(try await log.heads()["Notes"]?.compactedThrough == 251)
            #expect(try await Self.rows(log, StoredEvent.systemPartition).map(\.bytes) == systemBefore.map(\.bytes))

            // The node that wrote everything (its mirror uncompacted) reads and writes on.
            #expect(try await PostgresMirrorTests.contents(database, zone) == expected)
            _ = try await database.save(PostgresMirrorTests.note("later", "after the compaction", in: zone))
            let final = try await PostgresMirrorTests.contents(database, zone)
            try database.close()

            // A node whose mirror is built from the compacted rows.
            let other = try await cluster.openDatabase(name, mirror: fresh, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(other, zone) == final)
            #expect(try await Self.changedNames(other, zone, since: token) == expectedSince + ["later"])
            try other.close()
            // Compacted again, the one small commit since is merged; a third time, nothing changes.
            let again = try #require(try await PostgresCompaction.compact(log, zone: "Notes", scratch: Self.scratch(), logger: Logger(label: "test")))
            #expect(again.recordsRemoved == 0)
            #expect(try await PostgresCompaction.compact(log, zone: "Notes", scratch: Self.scratch(), logger: Logger(label: "test")) == nil)
            let reread = try await cluster.openDatabase(name, mirror: fresh, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(reread, zone) == final)
            try reread.close()
        }
    }

    @Test("a node whose mirror ends inside rows a compaction replaced is poisoned at its next pull, and opened again fetches the zone anew and serves the same")
    func mirrorBehindTheCompaction() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let a = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil).database
            _ = try await a.createZone(zone)
            for index in 0..<40 { _ = try await a.save(PostgresMirrorTests.note("n\(index)", "from A", in: zone)) }
            let (b, mirror) = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil)
            for index in 40..<80 { _ = try await a.save(PostgresMirrorTests.note("n\(index)", "from A", in: zone)) }
            _ = try await PostgresCompaction.compact(cluster.log(of: name), zone: "Notes", scratch: Self.scratch(), logger: Logger(label: "test"))

            // B's mirror ends at offset 40, inside the one row that now holds 0...79.
            try await b.refresh()
            #expect(mirror.failure != nil)
            try b.abandon()
            let (reopened, again) = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil)
            #expect(again.refetchedZones == ["Notes"])
            #expect(try await PostgresMirrorTests.contents(reopened, zone) == (try await PostgresMirrorTests.contents(a, zone)))
            _ = try await reopened.save(PostgresMirrorTests.note("from-b", "after", in: zone))
            try await a.refresh()
            #expect(try await PostgresMirrorTests.contents(a, zone) == (try await PostgresMirrorTests.contents(reopened, zone)))
            try reopened.close()
            try a.close()
        }
    }

    @Test("the replace is fenced: one based on rows another compaction replaced since is refused and changes nothing")
    func staleCompactionIsRefused() async throws {
        let name = TestPostgres.freshDatabase()
        let mirror = PostgresMirrorTests.mirrorDirectory()
        defer { try? FileManager.default.removeItem(atPath: mirror) }
        try await PostgresCluster.with(url: url) { cluster in
            let log = cluster.log(of: name)
            let database = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
            _ = try await database.createZone(zone)
            for index in 0..<30 { _ = try await database.save(PostgresMirrorTests.note("n\(index)", "note", in: zone)) }
            let stale = try #require(try await log.heads()["Notes"])
            let original = try await Self.rows(log, "Notes")
            _ = try await PostgresCompaction.compact(log, zone: "Notes", scratch: Self.scratch(), logger: Logger(label: "test"))
            let compacted = try await Self.rows(log, "Notes")
            #expect(compacted.count < original.count)

            // A second compaction that read the rows before the first replaced them.
            await #expect(throws: PostgresLogError.self) {
                try await log.replace("Notes", below: stale.endOffset, with: original, head: stale)
            }
            #expect(try await Self.rows(log, "Notes").map(\.bytes) == compacted.map(\.bytes))
            // And one of another generation of the zone.
            let head = try #require(try await log.heads()["Notes"])
            await #expect(throws: PostgresLogError.self) {
                var other = head
                other.generation &+= 1
                try await log.replace("Notes", below: head.endOffset, with: compacted, head: other)
            }
            try database.close()
        }
    }

    @Test("a node re-batches the small commits it writes in the background: its newest rows are merged as they pile up, and a node following it, a fresh mirror and an earlier token read the same")
    func rebatchedInTheBackground() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB, fresh) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB, fresh] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let log = cluster.log(of: name)
            let a = try await cluster.openDatabase(
                name, mirror: mirrorA, refreshInterval: nil, compaction: CompactionPolicy(rebatchingBytes: 8 << 10), compactionLag: .zero
            ).database
            _ = try await a.createZone(zone)
            // B follows A's commits by itself, as a serving node does.
            var (b, followerMirror) = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: .milliseconds(25))
            var token: ServerChangeToken?
            for index in 0..<200 {
                _ = try await a.save(PostgresMirrorTests.note("n\(index)", String(repeating: "milk and bread \(index) ", count: 12), in: zone))
                if index == 49 { token = try await a.fetchZoneChanges(in: zone, since: nil).changeToken }
            }
            await a.compactor.idle()
            let rows = try await Self.rows(log, "Notes")
            #expect(rows.count < 100, "\(rows.count) rows for 200 one-note commits")
            #expect(try await log.heads()["Notes"]?.compactedThrough ?? 0 > 0)
            let expected = try await PostgresMirrorTests.contents(a, zone)
            #expect(expected.count == 200)
            try? await b.refresh()
            if followerMirror.failure != nil {
                // B was behind a compaction of rows it had not pulled yet (a lag of 0 allows it):
                // as a server does, it opens the database again.
                try b.abandon()
                (b, followerMirror) = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil)
            }
            #expect(try await PostgresMirrorTests.contents(b, zone) == expected)
            let other = try await cluster.openDatabase(name, mirror: fresh, refreshInterval: nil).database
            #expect(try await PostgresMirrorTests.contents(other, zone) == expected)
            #expect(try await Self.changedNames(other, zone, since: token) == (50..<200).map { "n\($0)" })
            try other.close()
            try b.close()
            try a.close()
        }
    }

    @Test("a whole compaction with a retention drops old deletes: a node built from the rows answers a token from before them changeTokenExpired, the node that kept them answers it exactly, and the new node's tokens hold on both")
    func deletesDropped() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (PostgresMirrorTests.mirrorDirectory(), PostgresMirrorTests.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let log = cluster.log(of: name)
            let a = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil).database
            _ = try await a.createZone(zone)
            for index in 0..<40 { _ = try await a.save(PostgresMirrorTests.note("n\(index)", "note \(index)", in: zone)) }
            let before = try await a.fetchZoneChanges(in: zone, since: nil).changeToken
            for index in 0..<10 { try await a.delete(RecordID(recordName: "n\(index)", zoneID: zone)) }
            for index in 40..<50 { _ = try await a.save(PostgresMirrorTests.note("n\(index)", "note \(index)", in: zone)) }

            let report = try #require(
                try await PostgresCompaction.compact(log, zone: "Notes", tombstoneRetention: .zero, scratch: Self.scratch(), logger: Logger(label: "test")))
            #expect(report.tombstonesDropped == 10)
            let head = try #require(try await log.heads()["Notes"])
            #expect(head.expiryOffset == 50 && head.dropSequence == 2, "one past the last delete dropped; one compaction that dropped")

            // B is built from the rows: the deletes are gone, so a token from before them expires.
            let b = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil).database
            await #expect {
                _ = try await b.fetchZoneChanges(in: zone, since: before)
            } throws: { error in
                (error as? RecordStoreError)?.code == .changeTokenExpired
            }
            let fromNil = try await b.fetchZoneChanges(in: zone, since: nil)
            #expect(Set(fromNil.changedRecords.map(\.recordID.recordName)) == Set((10..<50).map { "n\($0)" }))
            // A kept every delete in its own files: the same token is answered, deletes included.
            let onA = try await a.fetchZoneChanges(in: zone, since: before)
            #expect(Set(onA.deletions.map(\.recordID.recordName)) == Set((0..<10).map { "n\($0)" }))

            // A token of B's holds on both nodes, and follows later writes.
            let tokenB = fromNil.changeToken
            _ = try await a.save(PostgresMirrorTests.note("later", "after", in: zone))
            try await b.refresh()
            #expect(try await b.fetchZoneChanges(in: zone, since: tokenB).changedRecords.map(\.recordID.recordName) == ["later"])
            #expect(try await a.fetchZoneChanges(in: zone, since: tokenB).changedRecords.map(\.recordID.recordName) == ["later"])
            try b.close()
            try a.close()
        }
    }
}
