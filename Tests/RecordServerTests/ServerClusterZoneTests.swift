import Foundation
import RecordClient
import RecordServer
import RecordStore
import StoreKindSupport
import Testing

/// A zone deleted through one node of a cluster is gone on every node, and one created again
/// under the same name is a new zone everywhere (FORMAT.md §14.1, `generation`).
@Suite(.enabled(if: TestCluster.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct ServerClusterZoneTests {
    let zone = ZoneID(zoneName: "Notes")

    @Test("a zone deleted through node A is gone through node B; created again through B, it holds only its new records on both, and a token of the old zone is changeTokenExpired on both")
    func zoneDeletedAndCreatedAgainAcrossNodes() async throws {
        let (database, token) = try await ServerClusterTests.database()
        let (a, cacheA) = try await ServerClusterTests.node()
        let (b, cacheB) = try await ServerClusterTests.node()
        defer { for path in [cacheA, cacheB] { try? FileManager.default.removeItem(atPath: path) } }
        let remoteA = HTTPRemoteDatabase(url: a.url, database: database, token: token)
        let remoteB = HTTPRemoteDatabase(url: b.url, database: database, token: token)
        try await remoteA.save(RecordZone(zoneID: zone))
        #expect(try await ServerClusterTests.save("old", title: "before", at: b.url, database: database, token: token).status == 200)
        let oldToken = try #require(try await remoteA.fetchZoneChanges(inZonesWith: [zone], configurations: [:])[zone]?.get().changeToken)

        // Deleted through A: B refuses its records and writes, and lists no such zone.
        try await remoteA.deleteZone(zone)
        let lookup = #"{"records": [{"recordName": "old", "zoneID": {"zoneName": "Notes"}}]}"#
        let gone = try await TestServer.raw(at: b.url, .POST, "/v1/databases/\(database)/records/lookup", body: lookup, token: token)
        #expect(gone.body.contains("ZONE_NOT_FOUND"), "\(gone.body)")
        let write = try await ServerClusterTests.save("new", title: "into nothing", at: b.url, database: database, token: token)
        #expect(write.body.contains("ZONE_NOT_FOUND"), "\(write.body)")
        #expect(try await remoteB.allRecordZones().map(\.zoneID).contains(zone) == false)

        // Created again through B: a new zone on both nodes.
        try await remoteB.save(RecordZone(zoneID: zone))
        #expect(try await ServerClusterTests.save("new", title: "after", at: a.url, database: database, token: token).status == 200)
        #expect(try await ServerClusterTests.allNames(remoteA, zone) == ["new"])
        #expect(try await ServerClusterTests.allNames(remoteB, zone) == ["new"])
        for remote in [remoteA, remoteB] {
            let result = try await remote.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: oldToken)])[zone]
            guard case .failure(let error)? = result else {
                Issue.record("a token of the deleted zone was answered: \(String(describing: result))")
                continue
            }
            #expect(error.code == .changeTokenExpired)
        }
        #expect(await a.stop() == 0)
        #expect(await b.stop() == 0)
    }
}
