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
        switch verifier.access(token: String(parts[1]), database: database) {
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
        return try await next(request, context)
    }
}
