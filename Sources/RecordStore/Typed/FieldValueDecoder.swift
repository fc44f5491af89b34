/// Decodes one property's value from a ``FieldValue``: directly for the types of
/// ``FieldValueConversion``, else through the type's own `init(from:)`, which may read a single
/// value (a scalar) or an unkeyed container (a list), but not a keyed one (a nested struct).
struct FieldValueDecoder: Decoder {
    let value: FieldValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// `value` as a `T`.
    static func decode<T: Decodable>(_ type: T.Type, from value: FieldValue, path: [any CodingKey]) throws -> T {
        if let direct = try FieldValueConversion.value(type, from: value, path: path) { return direct }
        return try T(from: FieldValueDecoder(value: value, codingPath: path))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw RecordMappingError.unsupportedValue(
            field: RecordMappingError.fieldName(codingPath),
            reason: "a nested struct or dictionary has no field representation; store its properties as fields of their own, or encode it as Data")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let elements) = value else {
            throw RecordMappingError.typeMismatch(field: RecordMappingError.fieldName(codingPath), expected: "a list", found: value.kind)
        }
        return FieldListDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        FieldSingleValueDecodingContainer(value: value, codingPath: codingPath)
    }
}

/// A single value read by a property type's own `init(from:)` (a `UUID`, a `String`-backed enum, …).
struct FieldSingleValueDecodingContainer: SingleValueDecodingContainer {
    let value: FieldValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try FieldValueDecoder.decode(type, from: value, path: codingPath)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }

    private func read<T: Decodable>(_ type: T.Type) throws -> T {
        try FieldValueDecoder.decode(type, from: value, path: codingPath)
    }
}
