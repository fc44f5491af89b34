import Foundation
import Hummingbird
import NIOCore
import RecordWire

/// Reading a request's JSON body and writing a JSON answer, with the wire's coders.
enum JSONBody {
    /// The request's body decoded as `T`.
    ///
    /// - Throws: `LIMIT_EXCEEDED` for a body over `limit` bytes (checked against Content-Length
    ///   before reading, and while reading); `BAD_REQUEST` naming the key path for one that is
    ///   not JSON or not `T`'s shape.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.limitExceeded, "The request body has \(length) bytes; the server accepts at most \(limit). Send fewer items per request.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.limitExceeded, "The request body is over \(limit) bytes, the most the server accepts. Send fewer items per request.")
        }
        guard buffer.readableBytes > 0 else {
            throw APIError(.invalidArguments, "The request has no body; send a JSON object (docs/openapi.yaml gives its shape).")
        }
        do {
            return try WireCoding.decoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(.invalidArguments, "The body is not a valid \(T.self): \(WireCoding.describe(error))")
        }
    }

    /// `value` as a 200 JSON answer.
    static func response<T: Encodable>(_ value: T) throws -> Response {
        let bytes = try WireCoding.encoder().encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
