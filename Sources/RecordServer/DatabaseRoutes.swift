import Hummingbird
import RecordStore
import RecordWire

/// The routes under `/v1/databases/{database}`, behind the auth middleware: records, changes,
/// zones, subscriptions and their notification streams. Each handler decodes its body, calls
/// the database as an in-process caller would, and encodes the answer; errors go to the error
/// middleware. The handlers are in `DatabaseRoutes+*.swift`, one file per area.
struct DatabaseRoutes: Sendable {
    let registry: DatabaseRegistry
    let metrics: ServerMetrics
    let configuration: RecordServerConfiguration

    /// The most items (records, zones, operations) one request may name: CloudKit's 400.
    static let maximumItems = Database.defaultMaximumItemsPerRequest

    /// Registers every route on `group` and returns them as (method, path under the
    /// database) pairs: the list the OpenAPI test holds the document to.
    @discardableResult
    func add(to group: RouterGroup<ServerRequestContext>) -> [(method: String, path: String)] {
        var routes: [(method: String, path: String)] = []
        func on(
            _ method: HTTPRequest.Method, _ path: String,
            _ handler: @escaping @Sendable (Request, ServerRequestContext) async throws -> Response
        ) {
            group.on(RouterPath(stringLiteral: path), method: method) { request, context in try await handler(request, context) }
            routes.append((method.rawValue, path))
        }
        on(.post, APIPath.recordsModify, modifyRecords)
        on(.post, APIPath.recordsLookup, lookupRecords)
        on(.post, APIPath.recordsQuery, queryRecords)
        on(.post, APIPath.zoneChanges, zoneChanges)
        on(.post, APIPath.databaseChanges, databaseChanges)
        on(.get, APIPath.zonesList, listZones)
        on(.post, APIPath.zonesModify, modifyZones)
        on(.get, APIPath.subscriptionsList, listSubscriptions)
        on(.post, APIPath.subscriptionsModify, modifySubscriptions)
        on(.get, APIPath.notifications("{subscriptionID}"), notifications)
        return routes
    }

    /// The database the request's token was granted.
    func database(_ context: ServerRequestContext) async throws -> (name: String, database: Database) {
        guard let name = context.databaseName else { throw APIError(.authenticationRequired, "The request was not authenticated.") }
        return (name, try await registry.database(named: name))
    }

    /// The request's body as `T`, within the configured size.
    func decode<T: WireDecodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await JSONBody.decode(type, from: request, limit: configuration.maximumRequestBodySize)
    }

    /// Refuses a request naming more than ``maximumItems`` items, as the store refuses a commit.
    func checkItemCount(_ count: Int, _ what: String) throws {
        guard count <= Self.maximumItems else {
            throw RecordStoreError(.limitExceeded, "The request names \(count) \(what); at most \(Self.maximumItems) per request. Split it.")
        }
    }
}
