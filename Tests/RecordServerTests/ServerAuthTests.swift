import Foundation
import NIOHTTP1
import RecordClient
import RecordServer
import RecordStore
import Testing

/// Every database path needs that database's token.
@Suite struct ServerAuthTests {
    @Test(
        "no token → 401 AUTHENTICATION_REQUIRED; a wrong one → 401 AUTHENTICATION_FAILED; another database's → 403; the client says which",
        arguments: ServerStorage.allCases)
    func tokens(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage, databases: ["notes", "photos"])
        let path = "/v1/databases/notes/zones/list"
        let none = try await server.raw(.GET, path)
        #expect(none.status == 401 && none.error?.serverErrorCode == .authenticationRequired)
        #expect(none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        let wrong = try await server.raw(.GET, path, token: "not-a-token")
        #expect(wrong.status == 401 && wrong.error?.serverErrorCode == .authenticationFailed)
        let basic = try await server.raw(.GET, path, headers: [("Authorization", "Basic dXNlcjpwdw==")])
        #expect(basic.status == 401)
        let other = try await server.raw(.GET, path, token: server.tokens["photos"])
        #expect(other.status == 403 && other.error?.serverErrorCode == .accessDenied)
        // A database that does not exist: the token opens no such database.
        let unknown = try await server.raw(.GET, "/v1/databases/nowhere/zones/list", token: server.tokens["notes"])
        #expect(unknown.status == 403)
        let good = try await server.raw(.GET, path, token: server.tokens["notes"])
        #expect(good.status == 200)

        do {
            _ = try await server.remote(token: "wrong").allRecordZones()
            Issue.record("a wrong token must fail")
        } catch let error as HTTPRemoteDatabaseError {
            #expect(error.kind == .authenticationFailed && error.status == 401)
        }
        do {
            _ = try await server.remote(token: server.tokens["photos"]).allRecordZones()
            Issue.record("another database's token must fail")
        } catch let error as HTTPRemoteDatabaseError {
            #expect(error.kind == .accessDenied && error.status == 403)
        }
        try await server.stopAndRemove()
    }

    // Files only: on PostgreSQL a rotated token is refused within a second (ClusterDatabases), not from the next request.
    @Test("a rotated token is refused by the running server from the next request; the new one works")
    func rotation() async throws {
        let server = try await TestServer.start()
        let old = try #require(server.tokens["notes"])
        #expect(try await server.raw(.GET, "/v1/databases/notes/zones/list", token: old).status == 200)
        let new = try DatabaseRoot(path: server.root).rotateToken("notes")
        #expect(new != old)
        #expect(try await server.raw(.GET, "/v1/databases/notes/zones/list", token: old).status == 401)
        #expect(try await server.raw(.GET, "/v1/databases/notes/zones/list", token: new).status == 200)
        // A database created while the server runs is served at once.
        let fresh = try await DatabaseRoot(path: server.root).createDatabase("later")
        #expect(try await server.raw(.GET, "/v1/databases/later/zones/list", token: fresh).status == 200)
        try await server.stopAndRemove()
    }

    @Test("/health and /metrics need no token; metrics count requests, commits, fsyncs and streams", arguments: ServerStorage.allCases)
    func operations(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let health = try await server.raw(.GET, "/health")
        #expect(health.status == 200 && health.body.contains("ok"))
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: ZoneID(zoneName: "Z")))
        _ = try await remote.modifyRecords(
            saving: [Record(recordType: "T", recordID: RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z")))], deleting: [],
            savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
        let metrics = try await server.raw(.GET, "/metrics")
        #expect(metrics.status == 200)
        var names = [
            "recordlog_http_requests_total", "recordlog_http_request_duration_seconds", "recordlog_commits_total",
            "recordlog_notification_streams_active",
        ]
        // A node on PostgreSQL runs no fsync of its own (PostgreSQL's commit makes a save durable).
        if storage == .files { names.append("recordlog_fsyncs_total") }
        for name in names {
            #expect(metrics.body.contains(name), "\(name) missing from /metrics")
        }
        #expect(metrics.body.contains("recordlog_commits_total{database=\"\(server.name())\"} 1"))
        try await server.stopAndRemove()
    }

    @Test("a token is the prefix and 43 base64url characters: it never starts with \"-\", which a command line takes for an option")
    func tokenAlphabet() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var tokens = Set<String>()
        for _ in 0..<2_000 {
            let token = AccessToken.generate()
            #expect(token.hasPrefix(AccessToken.prefix) && !token.hasPrefix("-"))
            #expect(token.dropFirst(AccessToken.prefix.count).count == 43)
            #expect(token.dropFirst(AccessToken.prefix.count).allSatisfy(alphabet.contains), "\(token)")
            tokens.insert(token)
        }
        #expect(tokens.count == 2_000)
    }

    @Test("the token file holds digests only; tokens are 256 random bits; names are checked")
    func tokenFile() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("RecordServerTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let token = try await DatabaseRoot(path: root).createDatabase("notes")
        #expect(token.count == 46)
        #expect(token.hasPrefix(AccessToken.prefix))
        let file = try String(contentsOfFile: root + "/tokens", encoding: .utf8)
        #expect(!file.contains(token))
        #expect(file.hasPrefix("notes "))
        let attributes = try FileManager.default.attributesOfItem(atPath: root + "/tokens")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        await #expect(throws: ServerSetupError.databaseExists("notes")) { _ = try await DatabaseRoot(path: root).createDatabase("notes") }
        await #expect(throws: ServerSetupError.invalidDatabaseName("../x")) { _ = try await DatabaseRoot(path: root).createDatabase("../x") }
        #expect(throws: ServerSetupError.unknownDatabase("none")) { _ = try DatabaseRoot(path: root).rotateToken("none") }
        #expect(try DatabaseRoot(path: root).listDatabases() == ["notes"])
    }
}
