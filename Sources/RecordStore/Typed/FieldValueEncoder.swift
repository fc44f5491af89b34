/// Encodes one property's value as a ``FieldValue``: directly for the types of
/// ``FieldValueConversion``, else through the value's own `encode(to:)`, which may use a single
/// value (a scalar) or an unkeyed container (a list), but not a keyed one (a nested struct).
final class FieldValueEncoder: Encoder {
    /// What the value encoded as.
    enum Storage {
        case nothing
        case null
        case value(FieldValue)
        case list(FieldListBuffer)
    }

    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var storage = Storage.nothing
    /// Set when the value asked for something a field cannot hold.
    var failure: RecordMappingError?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// The field value of `value`, or nil when it encodes as nil (an optional with no value).
    static func encode(_ value: some Encodable, path: [any CodingKey]) throws -> FieldValue? {
        if let direct = try FieldValueConversion.fieldValue(of: value, path: path) { return direct }
        let encoder = FieldValueEncoder(codingPath: path)
        try value.encode(to: encoder)
        return try encoder.finish()
    }

    /// The encoded value, once `encode(to:)` returned.
    func finish() throws(RecordMappingError) -> FieldValue? {
        if let failure { throw failure }
        switch storage {
        case .nothing: throw .unsupportedValue(field: RecordMappingError.fieldName(codingPath), reason: "its value encoded nothing")
        case .null: return nil
        case .value(let value): return value
        case .list(let buffer): return try buffer.finish()
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        failure = failure ?? Self.nestedStructFailure(codingPath)
        return KeyedEncodingContainer(FieldKeyedEncodingContainer<Key>(sink: DiscardingFieldSink(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let buffer = FieldListBuffer(codingPath: codingPath)
        storage = .list(buffer)
        return FieldListEncodingContainer(buffer: buffer)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FieldSingleValueEncodingContainer(encoder: self)
    }

    static func nestedStructFailure(_ path: [any CodingKey]) -> RecordMappingError {
        .unsupportedValue(
            field: RecordMappingError.fieldName(path),
            reason: "a nested struct or dictionary has no field representation; store its properties as fields of their own, or encode it as Data")
    }
}

/// A single value written by a property's own `encode(to:)`.
struct FieldSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: FieldValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.storage = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let encoded = try FieldValueEncoder.encode(value, path: codingPath) {
            encoder.storage = .value(encoded)
        } else {
            encoder.storage = .null
        }
    }

    mutating func encode(_ value: Bool) throws { encoder.storage = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.storage = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.storage = .value(.double(value)) }
    mutating func encode(_ value: Float) throws { encoder.storage = .value(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }

    private mutating func integer(_ value: some BinaryInteger) throws {
        guard let integer = Int64(exactly: value) else {
            throw RecordMappingError.valueOutOfRange(field: RecordMappingError.fieldName(codingPath), value: "\(value)", type: "Int64")
        }
        encoder.storage = .value(.int64(integer))
    }
}
