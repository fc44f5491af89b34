import Foundation

/// The decoder a model's `init(from:)` receives: a keyed container over the record's fields and
/// system fields.
struct RecordFieldsDecoder: Decoder {
    let record: Record
    let mapping: RecordFieldMapping
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordKeyedDecodingContainer<Key>(record: record, mapping: mapping))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.notKeyed }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.notKeyed }

    private static let notKeyed = RecordMappingError.unsupportedValue(
        field: "(record)", reason: "a RecordCodable model must decode from a keyed container (a struct with properties)")
}

/// Reads a model's properties from a record: the identifier from the record ID, the system dates
/// from the system fields, everything else from the fields.
struct RecordKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let record: Record
    let mapping: RecordFieldMapping
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        mapping.allKeys.filter { value(forKey: $0) != nil }.compactMap { Key(stringValue: $0) }
    }

    /// The value `key` reads: the record name (as a string) for the identifier, a date for a
    /// system date, else the field.
    private func value(forKey key: String) -> FieldValue? {
        switch mapping.role(of: key) {
        case .identifier: .string(record.recordID.recordName)
        case .creationDate: record.creationDate.map(FieldValue.date)
        case .modificationDate: record.modificationDate.map(FieldValue.date)
        case nil: record[key]
        }
    }

    func contains(_ key: Key) -> Bool { value(forKey: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if mapping.role(of: key.stringValue) == .identifier {
            if let recordID = record.recordID as? T { return recordID }
        }
        guard let value = value(forKey: key.stringValue) else { throw RecordMappingError.missingField(key.stringValue) }
        return try FieldValueDecoder.decode(type, from: value, path: [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, key) }

    private func read<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard let value = value(forKey: key.stringValue) else { throw RecordMappingError.missingField(key.stringValue) }
        return try FieldValueDecoder(value: value, codingPath: [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let value = value(forKey: key.stringValue) else { throw RecordMappingError.missingField(key.stringValue) }
        return try FieldValueDecoder(value: value, codingPath: [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw Self.noSuper(codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw Self.noSuper([key]) }

    private static func noSuper(_ path: [any CodingKey]) -> RecordMappingError {
        .unsupportedValue(field: RecordMappingError.fieldName(path), reason: "class inheritance (superDecoder) has no field representation")
    }
}
