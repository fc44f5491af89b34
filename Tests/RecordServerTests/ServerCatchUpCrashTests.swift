import Foundation
import RecordClient
import RecordServer
import RecordStore
import StoreKindSupport
import Synchronization
import Testing

/// The crash window of a node that follows another node's commits (FORMAT.md §14.3): killed with
/// SIGKILL while it writes the rows it pulled into its mirror, it loses nothing, and started
/// again on the same cache it serves exactly what the cluster acknowledged.
@Suite(.enabled(if: TestCluster.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct ServerCatchUpCrashTests {
    let zone = ZoneID(zoneName: "Notes")

    /// A modify of `count` new notes named `prefix-0…`, ~300 bytes each, as raw JSON.
    static func notes(_ prefix: String, count: Int) -> String {
        let saves = (0..<count).map { index in
            #"{"recordName": "\#(prefix)-\#(index)", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"text": {"value": "\#(prefix) \#(index): \#(String(repeating: "milk bread garden ", count: 16))", "type": "STRING"}}}"#
        }
        return #"{"saves": [\#(saves.joined(separator: ","))]}"#
    }

    @Test("a node killed with SIGKILL again and again while it catches up with another node's writes serves, started again on its cache, every acknowledged save once")
    func nodeKilledWhileCatchingUp() async throws {
        let (database, token) = try await ServerClusterTests.database()
        let (a, cacheA) = try await ServerClusterTests.node()
        let cacheB = FileManager.default.temporaryDirectory.appendingPathComponent("node-\(UUID().uuidString)").path
        defer { for path in [cacheA, cacheB] { try? FileManager.default.removeItem(atPath: path) } }
        let remoteA = HTTPRemoteDatabase(url: a.url, database: database, token: token)
        try await remoteA.save(RecordZone(zoneID: zone))
        let path = "/v1/databases/\(database)/records/modify"
        // A backlog for B's first catch-up: 4,000 notes in commits of 200.
        for commit in 0..<20 {
            let answer = try await TestServer.raw(at: a.url, .POST, path, body: Self.notes("old\(commit)", count: 200), token: token)
            try #require(answer.status == 200, "\(answer.body)")
        }

        let writing = Atomic<Bool>(true)
        let writer = Task {
            var acknowledged: [String] = []
            var commit = 0
            while writing.load(ordering: .acquiring) {
                let prefix = "new\(commit)"
                let answer = try await TestServer.raw(at: a.url, .POST, path, body: Self.notes(prefix, count: 50), token: token)
                #expect(answer.status == 200, "\(answer.body)")
                if answer.status == 200 { acknowledged += (0..<50).map { "\(prefix)-\($0)" } }
                commit += 1
            }
            return acknowledged
        }
        // B follows A's writes (its watcher pulls every 25 ms once the database is open); it is
        // killed while it does, at a different point each round: after its first answer, at once,
        // and after a few of A's commits.
        let lookup = #"{"records": [{"recordName": "old0-0", "zoneID": {"zoneName": "Notes"}}]}"#
        var kills = 0
        for round in 0..<4 {
            let b = try await ServerProcess(postgres: TestCluster.url ?? "", cache: cacheB)
            let opening = Task { try? await TestServer.raw(at: b.url, .POST, "/v1/databases/\(database)/records/lookup", body: lookup, token: token) }
            if round % 2 == 0 { _ = await opening.value }
            for _ in 0..<round { _ = try await TestServer.raw(at: a.url, .POST, path, body: Self.notes("extra\(round)-\(kills)", count: 1), token: token) }
            #expect(await b.stop(signal: SIGKILL) == SIGKILL)
            kills += 1
            _ = await opening.value
        }
        writing.store(false, ordering: .releasing)
        let acknowledged = try await writer.value
        #expect(kills == 4)

        // Started again on the cache SIGKILL left: the same records as A, each once.
        let b = try await ServerProcess(postgres: TestCluster.url ?? "", cache: cacheB)
        let namesB = try await ServerClusterTests.allNames(HTTPRemoteDatabase(url: b.url, database: database, token: token), zone)
        let namesA = try await ServerClusterTests.allNames(remoteA, zone)
        #expect(namesB.count == Set(namesB).count)
        #expect(namesB.sorted() == namesA.sorted())
        #expect(Set(acknowledged).isSubset(of: Set(namesB)))
        #expect(namesB.count >= 4000 + acknowledged.count)
        #expect(await b.stop() == 0)
        #expect(await a.stop() == 0)
    }
}
