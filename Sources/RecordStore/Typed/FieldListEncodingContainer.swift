/// The elements of a list being encoded; nested lists are buffers of their own until ``finish()``.
final class FieldListBuffer {
    enum Element {
        case value(FieldValue)
        case list(FieldListBuffer)
    }

    let codingPath: [any CodingKey]
    var elements: [Element] = []
    var failure: RecordMappingError?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// The list, its nested lists resolved.
    func finish() throws(RecordMappingError) -> FieldValue {
        if let failure { throw failure }
        var values: [FieldValue] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .value(let value): values.append(value)
            case .list(let buffer): values.append(try buffer.finish())
            }
        }
        return .list(values)
    }
}

/// Writes a property's array (or set) as a list field.
struct FieldListEncodingContainer: UnkeyedEncodingContainer {
    let buffer: FieldListBuffer
    var codingPath: [any CodingKey] { buffer.codingPath }
    var count: Int { buffer.elements.count }

    private var nextPath: [any CodingKey] { codingPath + [FieldPathKey(index: count)] }

    mutating func encodeNil() throws {
        throw RecordMappingError.unsupportedValue(
            field: RecordMappingError.fieldName(nextPath), reason: "a list cannot hold nil; leave the element out")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        guard let encoded = try FieldValueEncoder.encode(value, path: path) else {
            throw RecordMappingError.unsupportedValue(
                field: RecordMappingError.fieldName(path), reason: "a list cannot hold nil; leave the element out")
        }
        buffer.elements.append(.value(encoded))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        buffer.failure = buffer.failure ?? FieldValueEncoder.nestedStructFailure(nextPath)
        return KeyedEncodingContainer(FieldKeyedEncodingContainer<NestedKey>(sink: DiscardingFieldSink(), codingPath: nextPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = FieldListBuffer(codingPath: nextPath)
        buffer.elements.append(.list(nested))
        return FieldListEncodingContainer(buffer: nested)
    }

    mutating func superEncoder() -> any Encoder {
        buffer.failure = buffer.failure ?? .unsupportedValue(
            field: RecordMappingError.fieldName(nextPath), reason: "class inheritance (superEncoder) has no field representation")
        return FieldValueEncoder(codingPath: nextPath)
    }
}
