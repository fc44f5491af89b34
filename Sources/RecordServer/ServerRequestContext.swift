import Hummingbird

/// The request context of the server's routes: Hummingbird's core context, the request's ID and
/// the database the request's token was granted (set by the auth middleware).
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's ID: the client's `X-Request-ID` when it sent a sane one, else Hummingbird's.
    var requestID: String = ""
    /// The database the request's path names and its token opens; nil before authentication.
    var databaseName: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
