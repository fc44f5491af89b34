import Foundation
import NIOHTTP1
import RecordClient
import RecordServer
import RecordStore
import StoreKindSupport
import Synchronization
import Testing

/// Two `recordlog-server` processes serving the same databases from one PostgreSQL, as a
/// cluster runs them: any node serves any database, a device may switch nodes between any two
/// requests, and a node killed mid-load costs no acknowledged save.
@Suite(.enabled(if: TestCluster.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct ServerClusterTests {
    static let postgres = TestCluster.url
    let zone = ZoneID(zoneName: "Notes")

    /// A node with a cache directory of its own.
    static func node() async throws -> (server: ServerProcess, cache: String) {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("node-\(UUID().uuidString)").path
        return (try await ServerProcess(postgres: postgres ?? "", cache: cache), cache)
    }

    /// A database of the cluster and its token.
    static func database() async throws -> (name: String, token: String) {
        let name = "cluster-\(UUID().uuidString.prefix(8).lowercased())"
        return (name, try await ClusterDatabases(url: postgres ?? "").createDatabase(name))
    }

    /// One note saved through `url`, as a device in another language would save it.
    static func save(_ name: String, title: String, at url: URL, database: String, token: String) async throws -> RawAnswer {
        try await TestServer.raw(
            at: url, .POST, "/v1/databases/\(database)/records/modify",
            body: """
                {"saves": [{"recordName": "\(name)", "zoneID": {"zoneName": "Notes"}, "recordType": "Note",
                 "fields": {"title": {"value": "\(title)", "type": "STRING"}}}]}
                """, token: token)
    }

    @Test("a database created once is served by both nodes with the same token; a save through one is read, and pushed, through the other")
    func anyNodeServesAnyDatabase() async throws {
        let (database, token) = try await Self.database()
        let (a, cacheA) = try await Self.node()
        let (b, cacheB) = try await Self.node()
        defer { for path in [cacheA, cacheB] { try? FileManager.default.removeItem(atPath: path) } }
        let remoteA = HTTPRemoteDatabase(url: a.url, database: database, token: token)
        let remoteB = HTTPRemoteDatabase(url: b.url, database: database, token: token)
        try await remoteA.save(RecordZone(zoneID: zone))
        _ = try await remoteB.save(Subscription(id: "notes", kind: .zone(zone)))
        let notifications = try await remoteB.notifications(for: "notes")

        #expect(try await Self.save("n1", title: "Buy milk", at: a.url, database: database, token: token).status == 200)
        var iterator = notifications.makeAsyncIterator()
        #expect(await iterator.next()?.zoneIDs == [zone])
        let read = try await remoteB.fetchZoneChanges(inZonesWith: [zone], configurations: [:])[zone]?.get()
        #expect(read?.changedRecords.map(\.recordID.recordName) == ["n1"])

        // A device switches node with its token: the change token of one node is good on the other.
        #expect(try await Self.save("n2", title: "Call Ann", at: b.url, database: database, token: token).status == 200)
        let since = try #require(read?.changeToken)
        let next = try await remoteA.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: since)])[zone]?.get()
        #expect(next?.changedRecords.map(\.recordID.recordName) == ["n2"])
        // A wrong token is refused by both.
        #expect(try await Self.save("n3", title: "x", at: a.url, database: database, token: "rl_wrong").status == 401)
        #expect(try await Self.save("n3", title: "x", at: b.url, database: database, token: "rl_wrong").status == 401)
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
    }

    @Test("writers through both nodes, one node killed with SIGKILL mid-load: every acknowledged save is kept, once, and both mirrors agree")
    func nodeKilledMidLoad() async throws {
        let (database, token) = try await Self.database()
        let (a, cacheA) = try await Self.node()
        let (b, cacheB) = try await Self.node()
        defer { for path in [cacheA, cacheB] { try? FileManager.default.removeItem(atPath: path) } }
        try await HTTPRemoteDatabase(url: a.url, database: database, token: token).save(RecordZone(zoneID: zone))

        let killed = KilledFlag()
        let (acks, ack) = AsyncStream<Void>.makeStream()
        let writersLeft = Countdown(8)
        let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var saved: [String] = []
                    for index in 0..<30 {
                        let name = "w\(writer)-\(index)"
                        // Alternate nodes; once A is dead, every write goes to B.
                        var url = (writer + index) % 2 == 0 && !killed.isSet ? a.url : b.url
                        for _ in 0..<10 {
                            do {
                                let answer = try await Self.save(name, title: "from \(writer)", at: url, database: database, token: token)
                                if answer.status == 200 {
                                    saved.append(name)
                                    ack.yield()
                                    break
                                }
                                // A retry of a save whose first attempt was stored: the record is
                                // there, with this writer's value — stored once.
                                if answer.error?.partialErrors?.first?.serverErrorCode == .serverRecordChanged { break }
                                #expect(answer.status == 503, "\(answer.body)")
                            } catch {
                                // The node died under the request: the device tries the other.
                                url = b.url
                            }
                        }
                    }
                    // The last writer ends the stream, so the killer never waits for saves that will not come.
                    if writersLeft.countDown() { ack.finish() }
                    return saved
                }
            }
            group.addTask {
                // Kill A while the writers are busy: after the 60th acknowledged save of 240.
                var count = 0
                for await _ in acks {
                    count += 1
                    if count == 60 { break }
                }
                killed.set()
                _ = await a.stop(signal: SIGKILL)
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(killed.isSet)
        let names = try await Self.allNames(HTTPRemoteDatabase(url: b.url, database: database, token: token), zone)
        // Every acknowledged save is there; nothing is there twice or unasked.
        #expect(Set(acknowledged).isSubset(of: Set(names)))
        #expect(names.count == Set(names).count)
        #expect(names.allSatisfy { $0.hasPrefix("w") })
        #expect(acknowledged.count >= 200)

        // A node started again on A's cache (its mirror as SIGKILL left it) serves the same.
        let again = try await ServerProcess(postgres: Self.postgres ?? "", cache: cacheA)
        #expect(try await Self.allNames(HTTPRemoteDatabase(url: again.url, database: database, token: token), zone).sorted() == names.sorted())
        #expect(await again.stop() == 0)
        #expect(await b.stop() == 0)
    }

    @Test("a node killed after PostgreSQL took a save, before or as it answers: the device's retry through the other node applies once")
    func retryAfterNodeDiedMidRequest() async throws {
        let (database, token) = try await Self.database()
        let (a, cacheA) = try await Self.node()
        let (b, cacheB) = try await Self.node()
        defer { for path in [cacheA, cacheB] { try? FileManager.default.removeItem(atPath: path) } }
        try await HTTPRemoteDatabase(url: a.url, database: database, token: token).save(RecordZone(zoneID: zone))
        let body = """
            {"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note",
             "fields": {"title": {"value": "once", "type": "STRING"}}}], "clientChangeToken": "\(Data("device-1:commit-1".utf8).base64EncodedString())"}
            """
        let first = Task { try? await TestServer.raw(at: a.url, .POST, "/v1/databases/\(database)/records/modify", body: body, token: token) }
        // The moment node B sees the save, PostgreSQL has it: kill A there, whether or not its
        // answer left.
        let lookup = #"{"records": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}}]}"#
        while try await !TestServer.raw(at: b.url, .POST, "/v1/databases/\(database)/records/lookup", body: lookup, token: token).body.contains("recordChangeTag") {
            await Task.yield()
        }
        _ = await a.stop(signal: SIGKILL)
        _ = await first.value
        // The device never heard back (as far as it knows): it sends the same commit to B.
        let retry = try await TestServer.raw(at: b.url, .POST, "/v1/databases/\(database)/records/modify", body: body, token: token)
        #expect(retry.status == 200, "\(retry.body)")
        let names = try await Self.allNames(HTTPRemoteDatabase(url: b.url, database: database, token: token), zone)
        #expect(names == ["n1"])
        // Applied once: the retry answered the first attempt's save, whose change tag the record has.
        let changes = try await HTTPRemoteDatabase(url: b.url, database: database, token: token)
            .fetchZoneChanges(inZonesWith: [zone], configurations: [:])[zone]?.get()
        let tag = try #require(changes?.changedRecords.first?.recordChangeTag)
        #expect(retry.body.contains(#""recordChangeTag":"\#(tag)""#))
        #expect(await b.stop() == 0)
    }

    /// The names of every record of the zone, page after page from nil.
    static func allNames(_ remote: HTTPRemoteDatabase, _ zone: ZoneID) async throws -> [String] {
        var names: [String] = []
        var changeToken: ServerChangeToken?
        var more = true
        while more {
            let page = try #require(
                try await remote.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: changeToken)])[zone]?.get())
            names += page.changedRecords.map(\.recordID.recordName)
            changeToken = page.changeToken
            more = page.moreComing
        }
        return names
    }
}

/// Counts down from a number; says which call reached zero.
final class Countdown: Sendable {
    private let left: Atomic<Int>
    init(_ count: Int) { left = Atomic(count) }
    /// Counts one down; true for the call that reaches zero.
    func countDown() -> Bool { left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 }
}

/// Set once, read by every writer.
final class KilledFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
