import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import RecordStore
import RecordSync
import RecordWire

/// A database on a `recordlog-server`, as a ``RemoteDatabase``: what a `SyncEngine` syncs a local
/// store with across machines, without knowing it is not a local `Database`.
///
/// ```swift
/// let remote = HTTPRemoteDatabase(url: URL(string: "https://sync.example.com")!, database: "notes", token: token)
/// let changes = try await remote.fetchDatabaseChanges(since: nil)
/// ```
///
/// Errors the store behind the server raised come back as the same `RecordStoreError` — code,
/// message, a conflict's server, client and ancestor records, a partial failure's item errors.
/// What a local database never does (a refused token, no server) is an
/// ``HTTPRemoteDatabaseError``. Transient failures are retried as ``RetryPolicy`` says.
public final class HTTPRemoteDatabase: RemoteDatabase {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let url: URL
    /// The database's name on the server.
    public let database: String
    /// CloudKit's 400, as the server allows.
    public let maximumItemsPerRequest: Int

    private let token: String
    private let client: HTTPClient
    private let retryPolicy: RetryPolicy
    private let requestTimeout: Duration
    private let logger: Logger
    /// The largest answer read (a page of 400 records of 1 MB each, and room for the JSON).
    private static let maximumResponseSize = 512 * 1024 * 1024

    /// A client of `database` on the server at `url`.
    ///
    /// - Parameters:
    ///   - token: the database's bearer token (`recordlog-server create-database` printed it).
    ///   - client: the HTTP client; ``defaultClient`` unless told otherwise.
    ///   - retryPolicy: how transient failures are retried.
    ///   - requestTimeout: how long one attempt may wait for its answer to start.
    public init(
        url: URL, database: String, token: String, client: HTTPClient = HTTPRemoteDatabase.defaultClient, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(60), maximumItemsPerRequest: Int = 400, logger: Logger = Logger(label: "HTTPRemoteDatabase")
    ) {
        self.url = url
        self.database = database
        self.token = token
        self.client = client
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.maximumItemsPerRequest = maximumItemsPerRequest
        self.logger = logger
    }

    /// The process-wide client every `HTTPRemoteDatabase` uses unless given another: like
    /// `HTTPClient.shared` (never shut down), but a refused connection fails at once instead of
    /// being retried by the pool until the request's deadline — ``RetryPolicy`` retries, with
    /// its backoff — and a connection silent for 60 seconds is given up (a notification stream
    /// hears the server's heartbeat every 15).
    public static let defaultClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    // MARK: RemoteDatabase

    public func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy, atomically: Bool, clientChangeTokenData: Data?
    ) async throws -> ModifyResult {
        let body = ModifyRecordsRequest(
            saves: saving, deletes: deleting, savePolicy: savePolicy, atomic: atomically, clientChangeToken: clientChangeTokenData)
        // With a client change token a repeat is answered with the first answer: safe to resend.
        let response: ModifyRecordsResponse = try await send(
            .POST, APIPath.recordsModify, body: body, repeatable: clientChangeTokenData != nil)
        var result = ModifyResult()
        for item in response.saved { result.saveResults[item.recordID] = item.result }
        for item in response.deleted { result.deleteResults[item.recordID] = item.result }
        return result
    }

    public func fetchDatabaseChanges(since token: ServerChangeToken?) async throws -> DatabaseChanges {
        let response: DatabaseChangesResponse = try await send(
            .POST, APIPath.databaseChanges, body: DatabaseChangesRequest(syncToken: token), repeatable: true)
        return response.changes
    }

    public func fetchZoneChanges(
        inZonesWith zoneIDs: [ZoneID], configurations: [ZoneID: ZoneChangesConfiguration]
    ) async throws -> [ZoneID: Result<ZoneChanges, RecordStoreError>] {
        let body = ZoneChangesRequest(zones: zoneIDs.map { ZoneChangesRequest.Zone(zoneID: $0, configuration: configurations[$0]) })
        let response: ZoneChangesResponse = try await send(.POST, APIPath.zoneChanges, body: body, repeatable: true)
        var results: [ZoneID: Result<ZoneChanges, RecordStoreError>] = [:]
        for zone in response.zones { results[zone.zoneID] = zone.result }
        return results
    }

    public func allRecordZones() async throws -> [RecordZone] {
        let response: ZonesListResponse = try await send(.GET, APIPath.zonesList, body: Optional<Int>.none, repeatable: true)
        return response.zones
    }

    @discardableResult
    public func save(_ zone: RecordZone) async throws -> RecordZone {
        let response: ZonesModifyResponse = try await send(
            .POST, APIPath.zonesModify, body: ZonesModifyRequest(operations: [.create(zone)]), repeatable: true)
        let result = try single(response.zones, "zone")
        if let error = result.error { throw storeError(error) }
        guard let saved = result.zone else { throw unexpected("The server answered no zone for \(zone.zoneID).") }
        return saved
    }

    public func deleteZone(_ zoneID: ZoneID) async throws {
        let response: ZonesModifyResponse = try await send(
            .POST, APIPath.zonesModify, body: ZonesModifyRequest(operations: [.delete(zoneID)]), repeatable: false)
        if let error = try single(response.zones, "zone").error { throw storeError(error) }
    }

    @discardableResult
    public func save(_ subscription: Subscription) async throws -> Subscription {
        let response: SubscriptionsModifyResponse = try await send(
            .POST, APIPath.subscriptionsModify, body: SubscriptionsModifyRequest(operations: [.save(subscription)]), repeatable: true)
        let result = try single(response.subscriptions, "subscription")
        if let error = result.error { throw storeError(error) }
        guard let saved = result.subscription else { throw unexpected("The server answered no subscription for \(subscription.id).") }
        return saved
    }

    public func deleteSubscription(_ id: String) async throws {
        let response: SubscriptionsModifyResponse = try await send(
            .POST, APIPath.subscriptionsModify, body: SubscriptionsModifyRequest(operations: [.delete(id)]), repeatable: false)
        if let error = try single(response.subscriptions, "subscription").error { throw storeError(error) }
    }

    public func allSubscriptions() async throws -> [Subscription] {
        let response: SubscriptionsListResponse = try await send(.GET, APIPath.subscriptionsList, body: Optional<Int>.none, repeatable: true)
        return response.subscriptions
    }

    /// The subscription's notifications, read from the server's Server-Sent Events stream.
    /// Returns once the server listens (every commit after the return is delivered); the stream
    /// ends when the subscription is deleted, the server stops, or the connection drops — then
    /// call again and fetch changes from your tokens, which misses nothing.
    ///
    /// - Throws: `unknownItem` when there is no such subscription.
    public func notifications(for subscriptionID: String) async throws -> AsyncStream<SubscriptionNotification> {
        let stream = NotificationStream(
            client: client, request: makeRequest(.GET, APIPath.notifications(Self.pathSegment(subscriptionID)), body: nil, requestID: Self.newRequestID()),
            logger: logger)
        return try await stream.open { status, body in self.failure(status: status, body: body, requestID: nil) }
    }

    /// Fetches records by ID (CloudKit's records/lookup); not part of ``RemoteDatabase``.
    public func records(for ids: [RecordID], desiredKeys: [String]? = nil) async throws -> [RecordID: Result<Record, RecordStoreError>] {
        let response: LookupRecordsResponse = try await send(
            .POST, APIPath.recordsLookup, body: LookupRecordsRequest(recordIDs: ids, desiredKeys: desiredKeys), repeatable: true)
        var results: [RecordID: Result<Record, RecordStoreError>] = [:]
        for item in response.results { results[item.recordID] = item.result }
        return results
    }

    /// Runs a query (CloudKit's records/query); not part of ``RemoteDatabase``.
    public func records(
        matching query: RecordQuery, inZoneWith zoneID: ZoneID? = nil, desiredKeys: [String]? = nil, resultsLimit: Int = 100
    ) async throws -> QueryResult {
        try await runQuery(QueryRecordsRequest(query: query, zoneID: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit, continuationMarker: nil))
    }

    /// The next page of a query; not part of ``RemoteDatabase``.
    public func records(continuingMatchFrom cursor: QueryCursor, desiredKeys: [String]? = nil, resultsLimit: Int = 100) async throws -> QueryResult {
        try await runQuery(
            QueryRecordsRequest(
                query: nil, zoneID: nil, desiredKeys: desiredKeys, resultsLimit: resultsLimit, continuationMarker: cursor.data.base64EncodedString()))
    }

    private func runQuery(_ body: QueryRecordsRequest) async throws -> QueryResult {
        let response: QueryRecordsResponse = try await send(.POST, APIPath.recordsQuery, body: body, repeatable: true)
        var cursor: QueryCursor?
        if let marker = response.continuationMarker {
            guard let data = Data(base64Encoded: marker) else { throw unexpected("The continuation marker is not base64.") }
            cursor = try QueryCursor(data: data)
        }
        return QueryResult(matchResults: response.results.map { ($0.recordID, $0.result) }, cursor: cursor)
    }

    // MARK: HTTP

    /// Sends a request, retrying transient failures, and decodes the answer.
    ///
    /// - Parameter repeatable: whether sending the request twice is harmless, so that it may be
    ///   resent after a connection failure that may have come after the server received it.
    private func send<Body: Encodable, Answer: Decodable>(
        _ method: HTTPMethod, _ endpoint: String, body: Body?, repeatable: Bool
    ) async throws -> Answer {
        let bytes = try body.map { try WireCoding.encoder().encode($0) }
        // One ID for every attempt, so the server's log shows them as one request.
        let requestID = Self.newRequestID()
        var attempt = 1
        while true {
            let request = makeRequest(method, endpoint, body: bytes, requestID: requestID)
            let status: Int
            let answer: ByteBuffer
            do {
                let response = try await client.execute(request, timeout: .nanoseconds(Int64(requestTimeout.components.seconds) * 1_000_000_000))
                status = Int(response.status.code)
                answer = try await response.body.collect(upTo: Self.maximumResponseSize)
            } catch {
                if error is CancellationError || Task.isCancelled { throw error }
                let safe = repeatable || Self.failedBeforeSending(error)
                guard safe, attempt < retryPolicy.maximumAttempts else {
                    throw HTTPRemoteDatabaseError(
                        safe ? .unavailable : .transport,
                        "Could not reach \(url.absoluteString) (\(error)) after \(attempt) attempt\(attempt == 1 ? "" : "s").")
                }
                logger.debug("retrying after a connection failure", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
                try await Task.sleep(for: retryPolicy.delay(afterAttempt: attempt, retryAfter: nil))
                attempt += 1
                continue
            }
            if status == 200 {
                do {
                    return try WireCoding.decoder().decode(Answer.self, from: Data(answer.readableBytesView))
                } catch {
                    throw HTTPRemoteDatabaseError(
                        .unexpectedResponse, "The answer is not a \(Answer.self): \(WireCoding.describe(error))", status: status, requestID: requestID)
                }
            }
            let failure = failure(status: status, body: answer, requestID: requestID)
            if let retryAfter = failure.retryAfter, attempt < retryPolicy.maximumAttempts {
                logger.debug("retrying after the server asked to wait", metadata: ["attempt": "\(attempt)", "status": "\(status)"])
                try await Task.sleep(for: retryPolicy.delay(afterAttempt: attempt, retryAfter: retryAfter))
                attempt += 1
                continue
            }
            throw failure.error
        }
    }

    /// The error an answer other than 200 means, and whether (after how long) to try again:
    /// 429, 503 and a gateway's 502/504 are worth waiting for.
    private func failure(status: Int, body: ByteBuffer, requestID: String?) -> (error: any Error, retryAfter: Double?) {
        guard let error = try? WireCoding.decoder().decode(ErrorBody.self, from: Data(body.readableBytesView)) else {
            let text = String(buffer: body).prefix(200)
            let transient = [429, 502, 503, 504].contains(status)
            return (
                HTTPRemoteDatabaseError(
                    transient ? .unavailable : .unexpectedResponse, "The server answered HTTP \(status): \(text)", status: status, requestID: requestID),
                transient ? 1 : nil
            )
        }
        let id = error.requestID ?? requestID
        if let storeError = error.recordStoreError { return (storeError, nil) }
        switch error.serverErrorCode {
        case .authenticationRequired, .authenticationFailed:
            return (HTTPRemoteDatabaseError(.authenticationFailed, error.reason, status: status, requestID: id), nil)
        case .accessDenied:
            return (HTTPRemoteDatabaseError(.accessDenied, error.reason, status: status, requestID: id), nil)
        case .throttled, .tryAgainLater:
            return (HTTPRemoteDatabaseError(.unavailable, error.reason, status: status, requestID: id), error.retryAfter ?? 1)
        default:
            return (HTTPRemoteDatabaseError(.unexpectedResponse, "\(error.serverErrorCode.rawValue): \(error.reason)", status: status, requestID: id), nil)
        }
    }

    private func makeRequest(_ method: HTTPMethod, _ endpoint: String, body: Data?, requestID: String) -> HTTPClientRequest {
        let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        var request = HTTPClientRequest(url: base + APIPath.database(database, endpoint))
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: endpoint.hasSuffix("/notifications") ? "text/event-stream" : "application/json")
        request.headers.add(name: APIPath.requestIDHeader, value: requestID)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return request
    }

    /// Whether a connection error came before any byte of the request was sent (no connection
    /// could be made), so that even a request unsafe to repeat may be sent again.
    private static func failedBeforeSending(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        let text = String(describing: error)
        return text.contains("connectTimeout") || text.contains("NIOConnectionError") || text.contains("connectionRefused")
            || text.contains("Connection refused")
    }

    private func single<T>(_ results: [T], _ what: String) throws -> T {
        guard results.count == 1, let result = results.first else {
            throw unexpected("The server answered \(results.count) \(what) results for one operation.")
        }
        return result
    }

    private func storeError(_ body: ErrorBody) -> any Error {
        body.recordStoreError ?? HTTPRemoteDatabaseError(.unexpectedResponse, "\(body.serverErrorCode.rawValue): \(body.reason)", requestID: body.requestID)
    }

    private func unexpected(_ message: String) -> HTTPRemoteDatabaseError {
        HTTPRemoteDatabaseError(.unexpectedResponse, message)
    }

    private static func newRequestID() -> String { UUID().uuidString.lowercased() }

    /// A subscription ID as one path segment: everything but unreserved characters escaped.
    private static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
