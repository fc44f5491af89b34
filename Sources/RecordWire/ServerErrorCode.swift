import RecordStore

/// The `serverErrorCode` of an error body: CloudKit Web Services' names where it has one for the
/// meaning, ours otherwise. Each of RecordStore's codes has exactly one, so a client maps an
/// error back to the same `RecordStoreError.Code`; the others are the server's own (auth,
/// throttling, an unknown path).
package enum ServerErrorCode: String, Sendable, CaseIterable {
    // RecordStore's codes.
    case internalError = "INTERNAL_ERROR"
    case partialFailure = "PARTIAL_FAILURE"
    case unknownItem = "NOT_FOUND"
    case invalidArguments = "BAD_REQUEST"
    case serverRecordChanged = "CONFLICT"
    case changeTokenExpired = "CHANGE_TOKEN_EXPIRED"
    case batchRequestFailed = "ATOMIC_ERROR"
    case zoneNotFound = "ZONE_NOT_FOUND"
    case limitExceeded = "LIMIT_EXCEEDED"
    case referenceViolation = "VALIDATING_REFERENCE_ERROR"
    // The server's own.
    /// No bearer token in the request.
    case authenticationRequired = "AUTHENTICATION_REQUIRED"
    /// A token that is no database's (or no longer: rotated).
    case authenticationFailed = "AUTHENTICATION_FAILED"
    /// A valid token of another database.
    case accessDenied = "ACCESS_DENIED"
    /// No such path.
    case unknownPath = "UNKNOWN_PATH"
    /// The path exists, but not with this method (`Allow` lists those it has).
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    /// Too many requests at once for the database: wait `retryAfter` seconds.
    case throttled = "THROTTLED"
    /// The database cannot serve now (another process holds its store, the server is stopping):
    /// wait `retryAfter` seconds.
    case tryAgainLater = "TRY_AGAIN_LATER"

    /// The name for one of RecordStore's codes.
    package init(_ code: RecordStoreError.Code) {
        switch code {
        case .internalError: self = .internalError
        case .partialFailure: self = .partialFailure
        case .unknownItem: self = .unknownItem
        case .invalidArguments: self = .invalidArguments
        case .serverRecordChanged: self = .serverRecordChanged
        case .changeTokenExpired: self = .changeTokenExpired
        case .batchRequestFailed: self = .batchRequestFailed
        case .zoneNotFound: self = .zoneNotFound
        case .limitExceeded: self = .limitExceeded
        case .referenceViolation: self = .referenceViolation
        }
    }

    /// RecordStore's code with this name; nil for the server's own codes.
    package var recordStoreCode: RecordStoreError.Code? {
        switch self {
        case .internalError: .internalError
        case .partialFailure: .partialFailure
        case .unknownItem: .unknownItem
        case .invalidArguments: .invalidArguments
        case .serverRecordChanged: .serverRecordChanged
        case .changeTokenExpired: .changeTokenExpired
        case .batchRequestFailed: .batchRequestFailed
        case .zoneNotFound: .zoneNotFound
        case .limitExceeded: .limitExceeded
        case .referenceViolation: .referenceViolation
        case .authenticationRequired, .authenticationFailed, .accessDenied, .unknownPath, .methodNotAllowed, .throttled, .tryAgainLater: nil
        }
    }

    /// The HTTP status a response with this error has: 4xx for what the client can fix or wait
    /// out, 5xx only for the server's own failures.
    package var httpStatus: Int {
        switch self {
        case .invalidArguments: 400
        case .authenticationRequired, .authenticationFailed: 401
        case .accessDenied: 403
        case .unknownItem, .zoneNotFound, .unknownPath: 404
        case .methodNotAllowed: 405
        case .serverRecordChanged: 409
        case .changeTokenExpired: 410
        case .limitExceeded: 413
        case .partialFailure, .batchRequestFailed, .referenceViolation: 422
        case .throttled: 429
        case .internalError: 500
        case .tryAgainLater: 503
        }
    }
}
