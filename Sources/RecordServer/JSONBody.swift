import CompressNIO
import Foundation
import Hummingbird
import NIOCore
import RecordWire

/// Reading a request's JSON body and writing a JSON answer, with the wire's codec
/// (`RecordWire`: CloudKit Web Services' shapes, written and read over bytes).
enum JSONBody {
    /// The request's body read as `T`.
    ///
    /// - Throws: `LIMIT_EXCEEDED` for a body over `limit` bytes (checked against Content-Length
    ///   before reading, and while reading); `BAD_REQUEST` naming the key path for one that is
    ///   not JSON or not `T`'s shape.
    static func decode<T: WireDecodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
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
            return try WireJSON.decode(T.self, from: buffer.readableBytesView)
        } catch let error as WireDecodingError {
            throw APIError(.invalidArguments, "The body is not a valid \(T.self): \(error)")
        }
    }

    /// Answers smaller than this are sent as they are: gzip's header and a round trip through
    /// zlib cost more than the bytes they save.
    static let smallestCompressed = 1_024

    /// `value` as a 200 JSON answer, gzip'd when the request accepts it (`Accept-Encoding:
    /// gzip`) and the answer is not small: zlib's fastest level, which shrinks the wire's
    /// repetitive JSON several times at a few hundred MB/s.
    static func response(_ value: some WireEncodable, to request: Request) -> Response {
        let bytes = WireJSON.encode(value)
        var headers: HTTPFields = [.contentType: "application/json"]
        var buffer = ByteBuffer(bytes: bytes)
        if bytes.count >= smallestCompressed, acceptsGzip(request), let compressed = try? buffer.compress(with: gzip) {
            headers[.contentEncoding] = "gzip"
            headers[.vary] = "Accept-Encoding"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: compressed))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static let gzip = CompressionAlgorithm.gzip(configuration: ZlibConfiguration(compressionLevel: .fastestCompression))

    /// Whether `Accept-Encoding` names gzip (or `*`) without `q=0`.
    static func acceptsGzip(_ request: Request) -> Bool {
        guard let header = request.headers[.acceptEncoding] else { return false }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = pieces.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }
}
