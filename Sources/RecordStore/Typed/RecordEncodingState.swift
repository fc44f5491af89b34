/// What a model's `encode(to:)` wrote: its identifier and its fields, checked against its mapping.
final class RecordEncodingState: KeyedFieldSink {
    private enum Entry {
        case absent
        case value(FieldValue)
        case list(FieldListBuffer)
    }

    let mapping: RecordFieldMapping
    private var identifier: FieldValue?
    private var identifierKey: String?
    private var entries: [String: Entry] = [:]
    private var failure: RecordMappingError?
    private let knownKeys: Set<String>

    init(mapping: RecordFieldMapping) {
        self.mapping = mapping
        knownKeys = Set(mapping.allKeys)
    }

    func put(_ value: some Encodable, forKey key: String, path: [any CodingKey]) throws {
        switch mapping.role(of: key) {
        case .identifier:
            identifierKey = key
            identifier = try FieldValueEncoder.encode(value, path: path)
        case .creationDate, .modificationDate:
            return  // read-only: the store sets the system dates
        case nil:
            guard knownKeys.contains(key) else { throw RecordMappingError.unknownField(key) }
            entries[key] = try FieldValueEncoder.encode(value, path: path).map(Entry.value) ?? .absent
        }
    }

    func putNil(forKey key: String) {
        if mapping.role(of: key) != nil { return }
        guard knownKeys.contains(key) else { return fail(.unknownField(key)) }
        entries[key] = .absent
    }

    func nestedList(forKey key: String, path: [any CodingKey]) -> FieldListBuffer {
        let buffer = FieldListBuffer(codingPath: path)
        if mapping.role(of: key) != nil {
            fail(.unsupportedValue(field: key, reason: "it is a system field (identifier or date), not a list"))
        } else if !knownKeys.contains(key) {
            fail(.unknownField(key))
        } else {
            entries[key] = .list(buffer)
        }
        return buffer
    }

    func fail(_ error: RecordMappingError) {
        failure = failure ?? error
    }

    /// Whether the model encoded a non-nil identifier.
    var hasIdentifier: Bool { identifier != nil }

    /// The record ID the identifier names (a new UUID name when there is none), in `zoneID` unless
    /// the identifier is a ``RecordID``.
    func recordID(in zoneID: ZoneID) throws(RecordMappingError) -> RecordID {
        if let failure { throw failure }
        switch identifier {
        case nil: return RecordID(zoneID: zoneID)
        case .string(let name): return RecordID(recordName: name, zoneID: zoneID)
        case .reference(let reference): return reference.recordID
        case let other?:
            throw .invalidIdentifier(
                field: identifierKey ?? "id", reason: "it is a \(other.kind) value; use a String, a UUID or a RecordID")
        }
    }

    /// The stored fields, by key (nil: absent), with reference fields resolved into `zoneID`.
    func values(in zoneID: ZoneID) throws(RecordMappingError) -> [String: FieldValue] {
        if let failure { throw failure }
        var values: [String: FieldValue] = [:]
        for (key, entry) in entries {
            let value: FieldValue
            switch entry {
            case .absent: continue
            case .value(let encoded): value = encoded
            case .list(let buffer): value = try buffer.finish()
            }
            values[key] = mapping.storedValue(value, forKey: key, in: zoneID)
        }
        return values
    }
}

/// The encoder a model's `encode(to:)` receives: it must ask for a keyed container.
struct RecordFieldsEncoder: Encoder {
    let state: RecordEncodingState
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FieldKeyedEncodingContainer<Key>(sink: state, codingPath: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        state.fail(Self.notKeyed)
        return FieldListEncodingContainer(buffer: FieldListBuffer(codingPath: []))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        state.fail(Self.notKeyed)
        return FieldSingleValueEncodingContainer(encoder: FieldValueEncoder(codingPath: []))
    }

    private static let notKeyed = RecordMappingError.unsupportedValue(
        field: "(record)", reason: "a RecordCodable model must encode as a keyed container (a struct with properties)")
}
