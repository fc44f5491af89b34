import Foundation
import Logging
import RecordStore
import RecordSync
import RecordWire

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
///
/// It speaks HTTP through `URLSession` (on Linux FoundationNetworking's, over the system's
/// libcurl), so an app that syncs through it builds no SwiftNIO.
public final class HTTPRemoteDatabase: RemoteDatabase {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let url: URL
    /// The database's name on the server.
    public let database: String
    /// CloudKit's 400, as the server allows.
    public let maximumItemsPerRequest: Int

    private let token: String
    private let transport: HTTPTransport
    private let retryPolicy: RetryPolicy
    private let requestTimeout: Duration
    private let logger: Logger
    /// The largest answer read (a page of 400 records of 1 MB each, and room for the JSON).
    private static let maximumResponseSize = 512 * 1024 * 1024

    /// A client of `database` on the server at `url`.
    ///
    /// ```swift
    /// let configuration = HTTPRemoteDatabase.defaultConfiguration
    /// configuration.httpAdditionalHeaders = ["User-Agent": "Notes/2.0"]
    /// let remote = HTTPRemoteDatabase(url: url, database: "notes", token: token, configuration: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the server's base URL, `http` or `https`.
    ///   - database: the database's name on the server.
    ///   - token: the database's bearer token (`recordlog-server create-database` printed it).
    ///   - configuration: the `URLSession` configuration, for a session of this database's own;
    ///     `nil` (the default) shares one process-wide session configured as
    ///     ``defaultConfiguration``, never invalidated. Start a configuration of your own from
    ///     ``defaultConfiguration``.
    ///   - retryPolicy: how transient failures are retried.
    ///   - requestTimeout: how long one attempt may wait for its answer to start, or for more of it
    ///     once started; rounded up to whole seconds.
    ///   - maximumItemsPerRequest: the most saves plus deletes one modify sends.
    ///   - logger: where retries and dropped notification streams (debug) and notifications that
    ///     do not decode (warning) are logged.
    public init(
        url: URL, database: String, token: String, configuration: URLSessionConfiguration? = nil, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(60), maximumItemsPerRequest: Int = 400, logger: Logger = Logger(label: "HTTPRemoteDatabase")
    ) {
        self.url = url
        self.database = database
        self.token = token
        self.transport = configuration.map { HTTPTransport(configuration: $0) } ?? .shared
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.maximumItemsPerRequest = maximumItemsPerRequest
        self.logger = logger
    }

    /// The `URLSession` configuration every `HTTPRemoteDatabase` uses unless given another (a new
    /// copy on each read): an ephemeral session — no cache, cookies or stored credentials — that
    /// gives up a connection silent for 60 seconds (a notification stream hears the server's
    /// heartbeat every 15) and opens up to 16 connections to a server (each open notification
    /// stream holds one).
    ///
    /// URLSession never retries making a connection — ``RetryPolicy`` does, with its backoff —
    /// and a request that could not get a connection within 10 seconds fails as one that was
    /// never sent. (On Linux URLSession has no connect timeout of its own, so HTTPRemoteDatabase
    /// keeps it; a read has no body to show its connection was made, and is bounded by the
    /// 60 seconds of silence instead.)
    public static var defaultConfiguration: URLSessionConfiguration { HTTPTransport.defaultConfiguration() }

    // MARK: RemoteDatabase

    public func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy, atomically: Bool, clientChangeTokenData: Data?
    ) async throws -> ModifyResult {
        let body = ModifyRecordsRequest(
            saves: saving, deletes: deleting, savePolicy: savePolicy, atomic: atomically, clientChangeToken: clientChangeTokenData)
        // The wire carries only the keys a save writes; a conflict's client record is the whole
        // record as the caller holds it, as a local database reports it.
        var sent: [RecordID: Record] = [:]
        for record in saving { sent[record.recordID] = record }
        let response: ModifyRecordsResponse
        do {
            // With a client change token a repeat is answered with the first answer: safe to resend.
            response = try await send(.post, APIPath.recordsModify, body: body, repeatable: clientChangeTokenData != nil)
        } catch let error as RecordStoreError {
            throw Self.restoringClientRecords(error, sent)
        }
        var result = ModifyResult()
        for item in response.saved { result.saveResults[item.recordID] = item.result.mapError { Self.restoringClientRecords($0, sent) } }
        for item in response.deleted { result.deleteResults[item.recordID] = item.result }
        return result
    }

    /// `error` with each conflict's `clientRecord` (its own, its partial errors') replaced by the
    /// record the caller saved.
    private static func restoringClientRecords(_ error: RecordStoreError, _ sent: [RecordID: Record]) -> RecordStoreError {
        var error = error
        if error.clientRecord != nil, let id = error.recordID, let record = sent[id] { error.clientRecord = record }
        for (id, item) in error.partialErrors { error.partialErrors[id] = restoringClientRecords(item, sent) }
        return error
    }

    public func fetchDatabaseChanges(since token: ServerChangeToken?) async throws -> DatabaseChanges {
        let response: DatabaseChangesResponse = try await send(
            .post, APIPath.databaseChanges, body: DatabaseChangesRequest(syncToken: token), repeatable: true)
        return response.changes
    }

    public func fetchZoneChanges(
        inZonesWith zoneIDs: [ZoneID], configurations: [ZoneID: ZoneChangesConfiguration]
    ) async throws -> [ZoneID: Result<ZoneChanges, RecordStoreError>] {
        let body = ZoneChangesRequest(zones: zoneIDs.map { ZoneChangesRequest.Zone(zoneID: $0, configuration: configurations[$0]) })
        let response: ZoneChangesResponse = try await send(.post, APIPath.zoneChanges, body: body, repeatable: true)
        var results: [ZoneID: Result<ZoneChanges, RecordStoreError>] = [:]
        for zone in response.zones { results[zone.zoneID] = zone.result }
        return results
    }

    public func allRecordZones() async throws -> [RecordZone] {
        let response: ZonesListResponse = try await send(.get, APIPath.zonesList, body: nil, repeatable: true)
        return response.zones
    }

    @discardableResult
    public func save(_ zone: RecordZone) async throws -> RecordZone {
        let response: ZonesModifyResponse = try await send(
            .post, APIPath.zonesModify, body: ZonesModifyRequest(operations: [.create(zone)]), repeatable: true)
        guard let saved = try single(response.zones, "zone").outcome.get() else { throw unexpected("The server answered no zone for \(zone.zoneID).") }
        return saved
    }

    public func deleteZone(_ zoneID: ZoneID) async throws {
        let response: ZonesModifyResponse = try await send(
            .post, APIPath.zonesModify, body: ZonesModifyRequest(operations: [.delete(zoneID)]), repeatable: false)
        _ = try single(response.zones, "zone").outcome.get()
    }

    @discardableResult
    public func save(_ subscription: Subscription) async throws -> Subscription {
        let response: SubscriptionsModifyResponse = try await send(
            .post, APIPath.subscriptionsModify, body: SubscriptionsModifyRequest(operations: [.save(subscription)]), repeatable: true)
        guard let saved = try single(response.subscriptions, "subscription").outcome.get() else {
            throw unexpected("The server answered no subscription for \(subscription.id).")
        }
        return saved
    }

    public func deleteSubscription(_ id: String) async throws {
        let response: SubscriptionsModifyResponse = try await send(
            .post, APIPath.subscriptionsModify, body: SubscriptionsModifyRequest(operations: [.delete(id)]), repeatable: false)
        _ = try single(response.subscriptions, "subscription").outcome.get()
    }

    public func allSubscriptions() async throws -> [Subscription] {
        let response: SubscriptionsListResponse = try await send(.get, APIPath.subscriptionsList, body: nil, repeatable: true)
        return response.subscriptions
    }

    /// The subscription's notifications, read from the server's Server-Sent Events stream.
    /// Returns once the server listens (every commit after the return is delivered); the stream
    /// ends when the subscription is deleted, the server stops, or the connection drops — then
    /// call again and fetch changes from your tokens, which misses nothing.
    ///
    /// - Throws: `unknownItem` when there is no such subscription.
    public func notifications(for subscriptionID: String) async throws -> AsyncStream<SubscriptionNotification> {
        // No timeout of its own: the session's silence limit, which the server's heartbeat resets.
        let stream = NotificationStream(
            transport: transport,
            request: try makeRequest(.get, APIPath.notifications(Self.pathSegment(subscriptionID)), body: nil, requestID: Self.newRequestID(), timeout: nil),
            logger: logger)
        return try await stream.open { status, body in self.failure(status: status, body: body, requestID: nil) }
    }

    /// Fetches records by ID (CloudKit's records/lookup); not part of ``RemoteDatabase``.
    public func records(for ids: [RecordID], desiredKeys: [String]? = nil) async throws -> [RecordID: Result<Record, RecordStoreError>] {
        let response: LookupRecordsResponse = try await send(
            .post, APIPath.recordsLookup, body: LookupRecordsRequest(recordIDs: ids, desiredKeys: desiredKeys), repeatable: true)
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
        let response: QueryRecordsResponse = try await send(.post, APIPath.recordsQuery, body: body, repeatable: true)
        var cursor: QueryCursor?
        if let marker = response.continuationMarker {
            guard let data = Data(base64Encoded: marker) else { throw unexpected("The continuation marker is not base64.") }
            cursor = try QueryCursor(data: data)
        }
        return QueryResult(matchResults: response.results.map { ($0.recordID, $0.result) }, cursor: cursor)
    }

    // MARK: HTTP

    private enum HTTPMethod: String {
        case get = "GET"
        case post = "POST"
    }

    /// Sends a request, retrying transient failures, and decodes the answer.
    ///
    /// - Parameter repeatable: whether sending the request twice is harmless, so that it may be
    ///   resent after a connection failure that may have come after the server received it.
    private func send<Answer: WireDecodable>(
        _ method: HTTPMethod, _ endpoint: String, body: (any WireEncodable)?, repeatable: Bool
    ) async throws -> Answer {
        let bytes = body.map { WireBodies.requestBytes($0) }
        // One ID for every attempt, so the server's log shows them as one request.
        let requestID = Self.newRequestID()
        let request = try makeRequest(method, endpoint, body: bytes, requestID: requestID, timeout: requestTimeout)
        var attempt = 1
        while true {
            let response: HTTPTransport.Response
            do {
                response = try await transport.send(request, maximumBodySize: Self.maximumResponseSize)
            } catch let error as HTTPTransportError {
                if Task.isCancelled { throw CancellationError() }
                if error.kind == .answerTooLarge {
                    throw HTTPRemoteDatabaseError(.unexpectedResponse, error.message, requestID: requestID)
                }
                let safe = repeatable || error.kind == .failedBeforeSending
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
            if response.status == 200 {
                do {
                    return try WireBodies.answer(Answer.self, from: response.body)
                } catch {
                    throw HTTPRemoteDatabaseError(
                        .unexpectedResponse, "The answer is not a \(Answer.self): \(error.reason)", status: response.status, requestID: requestID)
                }
            }
            let failure = failure(status: response.status, body: response.body, requestID: requestID)
            if let retryAfter = failure.retryAfter, attempt < retryPolicy.maximumAttempts {
                logger.debug("retrying after the server asked to wait", metadata: ["attempt": "\(attempt)", "status": "\(response.status)"])
                try await Task.sleep(for: retryPolicy.delay(afterAttempt: attempt, retryAfter: retryAfter))
                attempt += 1
                continue
            }
            throw failure.error
        }
    }

    /// The error an answer other than 200 means, and whether (after how long) to try again:
    /// 429, 503 and a gateway's 502/504 are worth waiting for.
    private func failure(status: Int, body: Data, requestID: String?) -> (error: any Error, retryAfter: Double?) {
        guard let error = WireBodies.errorBody(from: body) else {
            let text = String(decoding: body.prefix(800), as: UTF8.self).prefix(200)
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

    /// A request to `endpoint` of this database, with the token, the request ID and the body.
    ///
    /// - Parameter timeout: how long the answer may keep silent; `nil` for the session's limit.
    private func makeRequest(_ method: HTTPMethod, _ endpoint: String, body: Data?, requestID: String, timeout: Duration?) throws -> URLRequest {
        let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        guard let address = URL(string: base + APIPath.database(Self.pathSegment(database), endpoint)) else {
            throw HTTPRemoteDatabaseError(.unavailable, "\(base) with the path of \(endpoint) is not a URL.")
        }
        var request = URLRequest(url: address)
        request.httpMethod = method.rawValue
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(endpoint.hasSuffix("/notifications") ? "text/event-stream" : "application/json", forHTTPHeaderField: "Accept")
        request.setValue(requestID, forHTTPHeaderField: APIPath.requestIDHeader)
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        if let timeout {
            // Linux's URLSession counts whole seconds (and fails at once on zero).
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            request.timeoutInterval = max(1, seconds.rounded(.up))
        }
        return request
    }

    private func single<T>(_ results: [T], _ what: String) throws -> T {
        guard results.count == 1, let result = results.first else {
            throw unexpected("The server answered \(results.count) \(what) results for one operation.")
        }
        return result
    }

    private func unexpected(_ message: String) -> HTTPRemoteDatabaseError {
        HTTPRemoteDatabaseError(.unexpectedResponse, message)
    }

    private static func newRequestID() -> String { UUID().uuidString.lowercased() }

    /// A database name or subscription ID as one path segment: everything but unreserved characters escaped.
    private static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
