import AsyncHTTPClient
import Foundation
import NIOHTTP1
import NIOCore
import RecordClient
import RecordStore
import RecordWire
import Testing

/// A client's mistake gets a clear 4xx with an error body, never a 5xx, and the server goes on.
@Suite struct ServerBadInputTests {
    @Test(
        "malformed or mis-shaped bodies are 400 BAD_REQUEST naming what is wrong",
        arguments: ServerStorage.allCases, [
            ("records/modify", "{not json"),
            ("records/modify", "[]"),
            ("records/modify", "{\"saves\": [{\"recordType\": \"Note\"}]}"),
            ("records/modify", "{\"saves\": [], \"savePolicy\": \"whatever\"}"),
            ("records/modify", "{\"saves\": [], \"clientChangeToken\": \"%%%\"}"),
            ("records/modify", "{\"deletes\": [{\"recordName\": \"x\", \"zoneID\": {\"zoneName\": \"Z\", \"ownerRecordName\": \"someone\"}}]}"),
            ("records/lookup", "{\"records\": 5}"),
            ("records/modify", "{\"saves\": [{\"recordName\": \"n\", \"recordType\": \"Note\", \"fields\": {\"t\": {\"value\": 1, \"type\": \"NUMBER\"}}}]}"),
            ("records/modify", "{\"saves\": [{\"recordName\": \"n\", \"recordType\": \"Note\", \"fields\": {\"t\": {\"value\": 9223372036854775808, \"type\": \"INT64\"}}}]}"),
            ("records/modify", "{\"saves\": [{\"recordName\": \"n\", \"recordType\": \"Note\", \"fields\": {\"t\": {\"value\": \"AAA*\", \"type\": \"BYTES\"}}}]}"),
            ("records/modify", "{\"saves\": [], \"saves\": []}"),
            ("records/query", "{}"),
            ("records/query", "{\"continuationMarker\": \"bm90IGEgY3Vyc29y\"}"),
            ("changes/zone", "{\"zones\": 3}"),
            ("changes/database", "{\"syncToken\": \"not base64!\"}"),
            ("changes/database", "{\"syncToken\": \"UkxUSwE=\"}"),
            ("zones/modify", "{\"operations\": [{\"operationType\": \"create\"}]}"),
            ("zones/modify", "{\"operations\": [{\"operationType\": \"explode\"}]}"),
            ("subscriptions/modify", "{\"operations\": [{\"operationType\": \"delete\"}]}"),
        ])
    func malformed(storage: ServerStorage, request: (endpoint: String, body: String)) async throws {
        let (endpoint, body) = request
        let server = try await TestServer.start(storage)
        let answer = try await server.raw(.POST, "/v1/databases/notes/\(endpoint)", body: body, token: server.tokens["notes"])
        #expect((400..<500).contains(answer.status), "\(endpoint) \(body) answered \(answer.status): \(answer.body)")
        let error = try #require(answer.error, "no error body: \(answer.body)")
        #expect(!error.reason.isEmpty)
        #expect(error.requestID != nil && answer.header("X-Request-ID") == error.requestID)
        // The server is still there.
        #expect(try await server.raw(.GET, "/health").status == 200)
        try await server.stopAndRemove()
    }

    /// Found by schemathesis: a location the store cannot encode answered 500. The store now
    /// refuses such a subscription itself, so, as for every item of a modify, the answer is the
    /// operation's own error (CloudKit Web Services' per-subscription results), and nothing is saved.
    @Test(
        "a subscription whose query holds a location that is not finite is refused as its own item, BAD_REQUEST, and not saved",
        arguments: ServerStorage.allCases)
    func nonFiniteSubscription(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let body = "{\"operations\": [{\"operationType\": \"create\", \"subscription\": {\"subscriptionID\": \"s\", \"subscriptionType\": \"query\", "
            + "\"query\": {\"recordType\": \"T\", \"sortBy\": [{\"fieldName\": \"k\", \"ascending\": true, "
            + "\"relativeLocation\": {\"latitude\": 1, \"longitude\": \"-inf\"}}]}, \"firesOn\": [\"create\"]}}]}"
        let answer = try await server.raw(.POST, "/v1/databases/notes/subscriptions/modify", body: body, token: server.tokens["notes"])
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.body.contains("\"serverErrorCode\":\"BAD_REQUEST\""), "\(answer.body)")
        #expect(answer.body.contains("not finite"), "\(answer.body)")
        let listed = try await server.raw(.GET, "/v1/databases/notes/subscriptions/list", token: server.tokens["notes"])
        #expect(!listed.body.contains("\"s\""), "\(listed.body)")
        try await server.stopAndRemove()
    }

    @Test(
        "an empty body, a body over the limit, more than 400 items, a record over 1 MB: 400 or 413 LIMIT_EXCEEDED",
        arguments: ServerStorage.allCases)
    func limits(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage) { $0.maximumRequestBodySize = 4 << 20 }
        let token = server.tokens["notes"]
        let empty = try await server.raw(.POST, "/v1/databases/notes/records/modify", body: "", token: token)
        #expect(empty.status == 400 && empty.error?.serverErrorCode == .invalidArguments)

        let huge = "{\"saves\": [], \"pad\": \"" + String(repeating: "x", count: 5 << 20) + "\"}"
        let oversize = try await server.raw(.POST, "/v1/databases/notes/records/modify", body: huge, token: token)
        #expect(oversize.status == 413 && oversize.error?.serverErrorCode == .limitExceeded)

        let remote = server.remote()
        let zone = ZoneID(zoneName: "Z")
        try await remote.save(RecordZone(zoneID: zone))
        let many = (0..<401).map { Record(recordType: "T", recordID: RecordID(recordName: "r\($0)", zoneID: zone)) }
        do {
            _ = try await remote.modifyRecords(saving: many, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
            Issue.record("401 items must be refused")
        } catch let error as RecordStoreError {
            #expect(error.code == .limitExceeded)
        }
        do {
            _ = try await remote.records(for: many.map(\.recordID))
            Issue.record("401 IDs must be refused")
        } catch let error as RecordStoreError {
            #expect(error.code == .limitExceeded)
        }
        var big = Record(recordType: "T", recordID: RecordID(recordName: "big", zoneID: zone))
        big["blob"] = .string(String(repeating: "y", count: 1_100_000))
        do {
            _ = try await remote.modifyRecords(saving: [big], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false, clientChangeTokenData: nil)
                .saveResults[big.recordID]?.get()
            Issue.record("a record over 1 MB must be refused")
        } catch let error as RecordStoreError {
            #expect(error.code == .limitExceeded)
        }
        try await server.stopAndRemove()
    }

    @Test("unknown paths are 404 UNKNOWN_PATH with an error body", arguments: ServerStorage.allCases, [
        "/nope", "/v1/databases/notes", "/v1", "/v1/databases/notes/records/nothing", "/v1/databases/notes/subscriptions/a/b/notifications",
    ])
    func unknownPaths(storage: ServerStorage, path: String) async throws {
        let server = try await TestServer.start(storage)
        let answer = try await server.raw(.GET, path, token: server.tokens["notes"])
        #expect(answer.status == 404, "\(path): \(answer.status)")
        #expect(answer.error?.serverErrorCode == .unknownPath)
        try await server.stopAndRemove()
    }

    @Test("a known path asked with another method is 405 METHOD_NOT_ALLOWED, with Allow", arguments: ServerStorage.allCases, [
        ("GET", "/v1/databases/notes/records/modify", "POST"), ("POST", "/health", "GET"), ("DELETE", "/v1/databases/notes/zones/list", "GET"),
        ("TRACE", "/metrics", "GET"), ("PUT", "/v1/databases/x/subscriptions/s/notifications", "GET"),
    ])
    func otherMethods(storage: ServerStorage, request: (method: String, path: String, allowed: String)) async throws {
        let (method, path, allowed) = request
        let server = try await TestServer.start(storage)
        let answer = try await server.raw(.RAW(value: method), path, token: server.tokens["notes"])
        #expect(answer.status == 405, "\(method) \(path): \(answer.status)")
        #expect(answer.error?.serverErrorCode == .methodNotAllowed)
        #expect(answer.header("Allow") == allowed)
        try await server.stopAndRemove()
    }

    @Test("a client's request ID is kept when sane and replaced when not", arguments: ServerStorage.allCases)
    func requestIDs(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let kept = try await server.raw(.GET, "/health", headers: [("X-Request-ID", "abc-123.x_y")])
        #expect(kept.header("X-Request-ID") == "abc-123.x_y")
        let replaced = try await server.raw(.GET, "/health", headers: [("X-Request-ID", "<script>")])
        #expect(replaced.header("X-Request-ID") != "<script>" && replaced.header("X-Request-ID") != nil)
        try await server.stopAndRemove()
    }

    @Test(
        "beyond the concurrent request limit a database answers 429 THROTTLED with retryAfter; the client waits and retries",
        arguments: ServerStorage.allCases)
    func throttling(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage) {
            $0.maximumConcurrentRequestsPerDatabase = 1
            $0.throttledRetryAfter = 0.05
        }
        let token = try #require(server.tokens["notes"])
        // A request whose body has not finished holds the database's one slot.
        let (body, upload) = AsyncStream<ByteBuffer>.makeStream()
        var request = HTTPClientRequest(url: server.address("/v1/databases/notes/records/lookup"))
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .stream(body, length: .unknown)
        // Its deadline is a hang guard: a full run on two cores stalls every test for minutes,
        // and a held request that timed out would free the slot under the checks below.
        let holder = Task { try await HTTPClient.shared.execute(request, timeout: .seconds(600)).status.code }
        upload.yield(ByteBuffer(string: "{\"records\": "))
        // Wait (by asking /metrics, which takes no slot) until the held request has the slot.
        var held = false
        let deadline = ContinuousClock.now + .seconds(600)
        while !held, ContinuousClock.now < deadline {
            held = try await server.raw(.GET, "/metrics").body.contains("recordlog_requests_in_flight{database=\"\(server.name())\"} 1")
        }
        #expect(held)
        let throttled: RawAnswer? = try await server.raw(.GET, "/v1/databases/notes/zones/list", token: token)
        #expect(throttled?.status == 429)
        let answer = try #require(throttled)
        #expect(answer.error?.serverErrorCode == .throttled && answer.error?.retryAfter == 0.05)
        #expect(answer.header("Retry-After") == "1")
        do {
            _ = try await server.remote(retryPolicy: .never).allRecordZones()
            Issue.record("a throttled call without retries must fail")
        } catch let error as HTTPRemoteDatabaseError {
            #expect(error.kind == .unavailable && error.status == 429)
        }
        // With retries, a call made while the slot is held succeeds once it is free.
        let waiting = Task { try await server.remote(retryPolicy: RetryPolicy(maximumAttempts: 1_000, initialDelay: .milliseconds(1))).allRecordZones() }
        upload.yield(ByteBuffer(string: "[]}"))
        upload.finish()
        #expect(try await holder.value == 200)
        _ = try await waiting.value
        try await server.stopAndRemove()
    }
}
