import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RecordLog
import RecordStore
import RecordWire

/// The outermost middleware but metrics: gives every request its ID (in the logger's metadata,
/// the `X-Request-ID` header of the answer and every error body), and turns every error into a
/// JSON error body — a client's mistake into a 4xx that says what to fix, never a 5xx; only the
/// server's own failures answer 500, and are logged as errors.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The server's routes, to answer 405 for a known path asked with another method.
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let requestID = Self.requestID(from: request) ?? context.id
        context.requestID = requestID
        context.logger[metadataKey: "request.id"] = .string(requestID)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && !routes.methods(for: request.uri.path).isEmpty {
            let allowed = routes.methods(for: request.uri.path)
            response = Self.response(
                for: ErrorBody(
                    serverErrorCode: .methodNotAllowed,
                    reason: "\(request.uri.path) answers \(allowed.joined(separator: ", ")), not \(request.method.rawValue).", requestID: requestID))
            response.headers[.allow] = allowed.joined(separator: ", ")
        } catch {
            let body = Self.body(for: error, requestID: requestID)
            if body.serverErrorCode == .internalError {
                context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            } else {
                context.logger.debug("request refused", metadata: ["code": "\(body.serverErrorCode.rawValue)", "reason": "\(body.reason)"])
            }
            response = Self.response(for: body)
        }
        if let name = HTTPField.Name(APIPath.requestIDHeader) { response.headers[name] = requestID }
        return response
    }

    /// The client's request ID when it is sane (1 to 128 of `A-Z a-z 0-9 . _ -`): it joins the
    /// client's logs to ours; anything else is ignored, not echoed.
    static func requestID(from request: Request) -> String? {
        guard let name = HTTPField.Name(APIPath.requestIDHeader), let value = request.headers[name],
            (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0 < 128 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || "._-".utf8.contains($0)) })
        else { return nil }
        return value
    }

    /// The error body for any error a route or middleware throws.
    static func body(for error: any Error, requestID: String) -> ErrorBody {
        switch error {
        case let error as RecordStoreError:
            return ErrorBody(error, requestID: requestID)
        case let error as APIError:
            return ErrorBody(serverErrorCode: error.code, reason: error.reason, requestID: requestID, retryAfter: error.retryAfter)
        case is NIOTooManyBytesError:
            return ErrorBody(serverErrorCode: .limitExceeded, reason: "The request body is larger than the server accepts.", requestID: requestID)
        case let error as HTTPError where error.status == .notFound:
            return ErrorBody(serverErrorCode: .unknownPath, reason: "There is no such path (with this method); docs/openapi.yaml lists them.", requestID: requestID)
        case let error as HTTPError where error.status == .contentTooLarge:
            return ErrorBody(serverErrorCode: .limitExceeded, reason: error.body ?? "The request is too large.", requestID: requestID)
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return ErrorBody(serverErrorCode: .invalidArguments, reason: error.body ?? "\(error.status)", requestID: requestID)
        case let error as EncodingError:
            // Only a value the client sent can fail to encode (the wire's own encoder spells every
            // double): the store could not write it, e.g. an infinite location in a subscription.
            return ErrorBody(serverErrorCode: .invalidArguments, reason: "A value in the request cannot be stored: \(error)", requestID: requestID)
        case LogError.batchTooLarge(let bytes, let limit):
            return ErrorBody(
                serverErrorCode: .limitExceeded,
                reason: "The request's commit would be \(bytes) bytes, over the log's limit of \(limit); send fewer or smaller records per request.",
                requestID: requestID)
        case LogError.locked:
            return ErrorBody(serverErrorCode: .tryAgainLater, reason: "Another process holds the database's store; try again shortly.", requestID: requestID, retryAfter: 2)
        case LogError.closed:
            return ErrorBody(serverErrorCode: .tryAgainLater, reason: "The server is stopping.", requestID: requestID, retryAfter: 1)
        case LogError.fenced:
            return ErrorBody(
                serverErrorCode: .tryAgainLater,
                reason: "Other servers of the cluster kept writing this database first; nothing of the request was stored. Try again.",
                requestID: requestID, retryAfter: 1)
        case LogError.sharedLogUnavailable(let reason):
            return ErrorBody(
                serverErrorCode: .tryAgainLater, reason: "The cluster's PostgreSQL is unavailable (\(reason)). Try again.", requestID: requestID,
                retryAfter: 2)
        default:
            return ErrorBody(serverErrorCode: .internalError, reason: "The server failed: \(error)", requestID: requestID)
        }
    }

    /// An error body as a response, with its code's status (and `Retry-After` when it has one).
    static func response(for body: ErrorBody) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter = body.retryAfter { headers[.retryAfter] = String(Int(retryAfter.rounded(.up))) }
        if body.serverErrorCode == .authenticationRequired || body.serverErrorCode == .authenticationFailed {
            headers[.wwwAuthenticate] = "Bearer realm=\"recordlog\""
        }
        return Response(
            status: HTTPResponse.Status(code: body.serverErrorCode.httpStatus), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: WireJSON.encode(body))))
    }
}
