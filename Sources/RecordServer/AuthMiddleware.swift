import Hummingbird
import RecordWire

/// Guards every path under `/v1/databases/{database}`: the request's bearer token must be that
/// database's (none or an unknown one → 401, another database's → 403). It then takes one of
/// the database's request slots for the request's duration (all taken → 429 `THROTTLED` with a
/// `retryAfter`).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let verifier: TokenVerifier
    let registry: DatabaseRegistry
    let throttledRetryAfter: Double
    /// The largest request body (a request to a database on PostgreSQL is read whole first).
    let maximumBodySize: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let database = context.parameters.get("database") else {
            throw APIError(.unknownPath, "The path names no database.")
        }
        guard let authorization = request.headers[.authorization] else {
            throw APIError(.authenticationRequired, "This path needs the database's token: send \"Authorization: Bearer TOKEN\".")
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw APIError(.authenticationRequired, "The Authorization header must be \"Bearer TOKEN\".")
        }
        switch await verifier.access(token: String(parts[1]), database: database) {
        case .unknownToken:
            throw APIError(.authenticationFailed, "The token is not valid (wrong, or replaced by rotate-token).")
        case .otherDatabase:
            throw APIError(.accessDenied, "The token belongs to another database than \"\(database)\".")
        case .granted:
            break
        }
        guard registry.enter(database) else {
            throw APIError(
                .throttled, "Database \"\(database)\" has too many requests in flight; retry after \(throttledRetryAfter) s.",
                retryAfter: throttledRetryAfter)
        }
        defer { registry.leave(database) }
        var context = context
        context.databaseName = database
        context.logger[metadataKey: "database"] = .string(database)
        guard case .postgres = registry.storage else { return try await next(request, context) }
        // On PostgreSQL a request may meet a database another node has written meanwhile (its
        // commit refused by the fence, the database then opened again): it runs again, planned
        // anew, a few times, and only then answers TRY_AGAIN_LATER. Its body is kept to be read
        // again.
        // A write runs during one of this node's write turns, so that nodes writing one
        // database take turns rather than race.
        var request = request
        _ = try await request.collectBody(upTo: maximumBodySize)
        guard request.method == .post, request.uri.path.hasSuffix("/modify") else {
            return try await retrying(request, context, database: database, next: next)
        }
        return try await registry.duringWriteTurn(database) { try await retrying(request, context, database: database, next: next) }
    }

    /// Runs the request, and again when the database refused it in a way that opening it again
    /// may cure, up to ``attempts`` times.
    private func retrying(
        _ request: Request, _ context: Context, database: String, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await next(request, context)
            } catch {
                guard attempt < Self.attempts, await registry.isRetryable(error, database: database) else { throw error }
                context.logger.debug("retrying a request its database refused", metadata: ["error": "\(error)", "attempt": "\(attempt)"])
            }
        }
    }

    /// How many times a request runs on PostgreSQL before its refusal is answered.
    static let attempts = 4
}
