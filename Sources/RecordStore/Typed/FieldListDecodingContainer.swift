/// Reads a list field into a property's array (or set), element by element.
struct FieldListDecodingContainer: UnkeyedDecodingContainer {
    let elements: [FieldValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [FieldValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// Lists hold no nils.
    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (element, path) = try next()
        let decoded = try FieldValueDecoder.decode(type, from: element, path: path)
        currentIndex += 1
        return decoded
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (element, path) = try next()
        return try FieldValueDecoder(value: element, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (element, path) = try next()
        let nested = try FieldValueDecoder(value: element, codingPath: path).unkeyedContainer()
        currentIndex += 1
        return nested
    }

    mutating func superDecoder() throws -> any Decoder {
        let (element, path) = try next()
        currentIndex += 1
        return FieldValueDecoder(value: element, codingPath: path)
    }

    private func next() throws(RecordMappingError) -> (FieldValue, [any CodingKey]) {
        let path = codingPath + [FieldPathKey(index: currentIndex)]
        guard currentIndex < elements.count else { throw .missingField(RecordMappingError.fieldName(path)) }
        return (elements[currentIndex], path)
    }
}
