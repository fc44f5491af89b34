/// Where a keyed encoding container's values go: the record being encoded, or nowhere.
protocol KeyedFieldSink: AnyObject {
    func put(_ value: some Encodable, forKey key: String, path: [any CodingKey]) throws
    func putNil(forKey key: String)
    func nestedList(forKey key: String, path: [any CodingKey]) -> FieldListBuffer
    func fail(_ error: RecordMappingError)
}

/// A sink that drops everything: behind the keyed container handed to a nested struct, whose
/// encoding has already failed.
final class DiscardingFieldSink: KeyedFieldSink {
    func put(_ value: some Encodable, forKey key: String, path: [any CodingKey]) throws {}
    func putNil(forKey key: String) {}
    func nestedList(forKey key: String, path: [any CodingKey]) -> FieldListBuffer { FieldListBuffer(codingPath: path) }
    func fail(_ error: RecordMappingError) {}
}

/// The keyed container of a model's `encode(to:)`: each key is a field (or a system-field role).
struct FieldKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: any KeyedFieldSink
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { sink.putNil(forKey: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try sink.put(value, forKey: key.stringValue, path: codingPath + [key])
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }

    private func put(_ value: some Encodable, _ key: Key) throws {
        try sink.put(value, forKey: key.stringValue, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        sink.fail(FieldValueEncoder.nestedStructFailure(codingPath + [key]))
        return KeyedEncodingContainer(FieldKeyedEncodingContainer<NestedKey>(sink: DiscardingFieldSink(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FieldListEncodingContainer(buffer: sink.nestedList(forKey: key.stringValue, path: codingPath + [key]))
    }

    mutating func superEncoder() -> any Encoder { unsupportedSuperEncoder(codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupportedSuperEncoder(codingPath + [key]) }

    private func unsupportedSuperEncoder(_ path: [any CodingKey]) -> any Encoder {
        sink.fail(.unsupportedValue(
            field: RecordMappingError.fieldName(path), reason: "class inheritance (superEncoder) has no field representation"))
        return FieldValueEncoder(codingPath: path)
    }
}
