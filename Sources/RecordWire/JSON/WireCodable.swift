/// A body of the API that writes itself as JSON, in CloudKit Web Services' shapes.
package protocol WireEncodable: Sendable {
    func write(to writer: inout JSONWriter)
}

/// A body of the API read from parsed JSON.
package protocol WireDecodable: Sendable {
    /// - Throws: ``WireDecodingError`` naming the key path that is wrong.
    init(wire: WireReader) throws
}

/// A body that goes both ways: the server reads what the client writes and the reverse.
package typealias WireCodable = WireEncodable & WireDecodable

/// The wire's two verbs: a body to JSON bytes, JSON bytes to a body.
package enum WireJSON {
    /// `value`'s JSON text.
    package static func encode(_ value: some WireEncodable) -> [UInt8] {
        var writer = JSONWriter()
        value.write(to: &writer)
        return writer.bytes
    }

    /// The body `bytes` hold.
    ///
    /// - Throws: ``WireDecodingError`` when the bytes are not JSON or not `T`'s shape.
    package static func decode<T: WireDecodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        try T(wire: try WireReader(parsing: bytes))
    }
}
