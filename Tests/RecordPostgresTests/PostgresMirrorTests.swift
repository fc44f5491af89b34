import Foundation
import RecordLog
import RecordPostgres
import RecordStore
import Testing

/// Databases on PostgreSQL as cluster nodes run them: each node a mirror of its own in front of
/// the shared rows, the fence ordering their writes.
@Suite(.enabled(if: TestPostgres.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct PostgresMirrorTests {
    let url = TestPostgres.url ?? ""
    let zone = ZoneID(zoneName: "Notes")

    /// A fresh directory for a node's mirror.
    static func mirrorDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mirror-\(UUID().uuidString)").path
    }

    static func note(_ name: String, _ title: String, in zone: ZoneID) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["title"] = .string(title)
        return record
    }

    /// Every record of the zone, by name, with its title and change tag.
    static func contents(_ database: Database, _ zone: ZoneID) async throws -> [String: String] {
        let changes = try await database.fetchZoneChanges(in: zone, since: nil)
        var contents: [String: String] = [:]
        for record in changes.changedRecords {
            if case .string(let title)? = record["title"] { contents[record.recordID.recordName] = "\(title)@\(record.recordChangeTag ?? "")" }
        }
        return contents
    }

    @Test("a save through one node is read on another, and survives both mirrors being deleted")
    func twoNodesShareTheRows() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (Self.mirrorDirectory(), Self.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let a = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil).database
            _ = try await a.createZone(zone)
            _ = try await a.save(Self.note("n1", "Buy milk", in: zone))

            let b = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil).database
            #expect(try await Self.contents(b, zone).keys.sorted() == ["n1"])
            var n1 = try await b.record(for: RecordID(recordName: "n1", zoneID: zone))
            n1["title"] = .string("Buy oat milk")
            _ = try await b.save(n1)
            _ = try await b.save(Self.note("n2", "Call Ann", in: zone))

            try await a.refresh()
            let expected = try await Self.contents(b, zone)
            #expect(try await Self.contents(a, zone) == expected)
            #expect(expected["n1"]?.hasPrefix("Buy oat milk@") == true)
            // Both nodes hand out the same change tokens: a device may switch between them.
            let tokenA = try await a.fetchZoneChanges(in: zone, since: nil).changeToken
            let tokenB = try await b.fetchZoneChanges(in: zone, since: nil).changeToken
            #expect(tokenA == tokenB)
            try a.close()
            try b.close()

            // A mirror reopened keeps its files; a mirror deleted is fetched again whole.
            let (reopened, mirror) = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil)
            #expect(mirror.refetchedZones.isEmpty)
            #expect(try await Self.contents(reopened, zone) == expected)
            try reopened.close()
            try FileManager.default.removeItem(atPath: mirrorB)
            let rebuilt = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil).database
            #expect(try await Self.contents(rebuilt, zone) == expected)
            try rebuilt.close()
        }
    }

    @Test("a node whose plan is stale is fenced out: nothing of its commit is stored, and it reopens level with the rows")
    func staleWriterIsFenced() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (Self.mirrorDirectory(), Self.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let (a, mirror) = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil)
            _ = try await a.createZone(zone)
            _ = try await a.save(Self.note("n1", "first", in: zone))
            let b = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil).database
            _ = try await b.save(Self.note("n2", "from B", in: zone))

            // A has not caught up: its commit is planned at the end B already moved.
            await #expect {
                _ = try await a.save(Self.note("n3", "from A, stale", in: zone))
            } throws: { error in
                guard case LogError.fenced(let partition, let expected, let actual) = error else { return false }
                return partition == "Notes" && expected == 1 && actual == 2
            }
            #expect(mirror.failure != nil)
            // Every later append is refused the same way until the node opens again.
            await #expect(throws: LogError.self) { _ = try await a.save(Self.note("n4", "after", in: zone)) }
            try a.abandon()

            let (again, repaired) = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil)
            #expect(repaired.refetchedZones == ["Notes"])
            #expect(try await Self.contents(again, zone).keys.sorted() == ["n1", "n2"])
            _ = try await again.save(Self.note("n3", "from A, replanned", in: zone))
            try await b.refresh()
            #expect(try await Self.contents(b, zone) == Self.contents(again, zone))
            try again.close()
            try b.close()
        }
    }

    @Test("two nodes writing one zone at once: no offset twice, every acknowledged save kept once, mirrors equal to the rows")
    func concurrentWritersNeverInterleave() async throws {
        let name = TestPostgres.freshDatabase()
        let mirrors = [Self.mirrorDirectory(), Self.mirrorDirectory()]
        defer { for path in mirrors { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let first = try await cluster.openDatabase(name, mirror: mirrors[0], refreshInterval: nil).database
            _ = try await first.createZone(zone)
            try first.close()
            let zone = self.zone
            let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
                for node in 0..<2 {
                    group.addTask {
                        var (database, mirror) = try await cluster.openDatabase(name, mirror: mirrors[node], refreshInterval: nil)
                        var saved: [String] = []
                        for index in 0..<40 {
                            let recordName = "node\(node)-\(index)"
                            for _ in 0..<20 {
                                do {
                                    try await database.refresh()
                                    _ = try await database.save(Self.note(recordName, "from node \(node)", in: zone))
                                    saved.append(recordName)
                                    break
                                } catch LogError.fenced {
                                    #expect(mirror.failure != nil)
                                    try database.abandon()
                                    (database, mirror) = try await cluster.openDatabase(name, mirror: mirrors[node], refreshInterval: nil)
                                }
                            }
                        }
                        try database.close()
                        return saved
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(acknowledged.count == 80)
            let rows = try await cluster.log(of: name).batches(of: "Notes", from: 0, maxBytes: .max)
            var offsets: [Int64] = []
            for row in rows { offsets += Array(row.header.baseOffset...row.header.lastOffset) }
            #expect(offsets == Array(0..<Int64(offsets.count)))
            var contents: [[String: String]] = []
            for mirror in mirrors {
                let database = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
                contents.append(try await Self.contents(database, zone))
                try database.close()
            }
            #expect(contents[0] == contents[1])
            #expect(contents[0].keys.sorted() == acknowledged.sorted())
            #expect(offsets.count == acknowledged.count)
        }
    }

    @Test("a save through one node reaches a subscriber on another node")
    func pushAcrossNodes() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (Self.mirrorDirectory(), Self.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let a = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil).database
            _ = try await a.createZone(zone)
            let b = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: .milliseconds(20)).database
            _ = try await b.save(Subscription(id: "notes", kind: .zone(zone)))
            let notifications = try b.notifications(for: "notes")
            _ = try await a.save(Self.note("n1", "pushed", in: zone))
            var iterator = notifications.makeAsyncIterator()
            let notification = await iterator.next()
            #expect(notification?.zoneIDs == [zone])
            try a.close()
            try b.close()
        }
    }

    @Test("a retry of a commit sent to another node is recognised by its client change token and applied once")
    func clientChangeTokenAcrossNodes() async throws {
        let name = TestPostgres.freshDatabase()
        let (mirrorA, mirrorB) = (Self.mirrorDirectory(), Self.mirrorDirectory())
        defer { for path in [mirrorA, mirrorB] { try? FileManager.default.removeItem(atPath: path) } }
        try await PostgresCluster.with(url: url) { cluster in
            let a = try await cluster.openDatabase(name, mirror: mirrorA, refreshInterval: nil).database
            _ = try await a.createZone(zone)
            let token = Data("device-7:commit-1".utf8)
            let note = Self.note("n1", "once", in: zone)
            _ = try await a.modifyRecords(saving: [note], deleting: [], clientChangeTokenData: token)
            let b = try await cluster.openDatabase(name, mirror: mirrorB, refreshInterval: nil).database
            let retry = try await b.modifyRecords(saving: [note], deleting: [], clientChangeTokenData: token)
            #expect((try? retry.saveResults[note.recordID]?.get()) != nil)
            let rows = try await cluster.log(of: name).batches(of: "Notes", from: 0, maxBytes: .max)
            #expect(rows.count == 1)
            try a.close()
            try b.close()
        }
    }
}

extension PostgresMirrorTests {
    @Test("compacting a database on PostgreSQL is refused with a clear error, and changes nothing")
    func compactionIsRefused() async throws {
        let name = TestPostgres.freshDatabase()
        let mirror = Self.mirrorDirectory()
        defer { try? FileManager.default.removeItem(atPath: mirror) }
        try await PostgresCluster.with(url: url) { cluster in
            let database = try await cluster.openDatabase(name, mirror: mirror, refreshInterval: nil).database
            _ = try await database.createZone(zone)
            _ = try await database.save(Self.note("n1", "kept", in: zone))
            await #expect {
                _ = try await database.compact()
            } throws: { error in
                (error as? RecordStoreError)?.code == .invalidArguments
            }
            #expect(try await Self.contents(database, zone).keys.sorted() == ["n1"])
            try database.close()
        }
    }
}
