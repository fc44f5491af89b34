import StorageKit
/// Reads the fields of a record's value bytes, in one of three ways: checking and building
/// values (the eager decoder), checking only, allocating nothing (``StoredRecord``'s walk when
/// it is created), or building the values of bytes already checked (``StoredRecord``'s lookups).
/// One walk for all three, so that the borrowed path rejects exactly what the eager one does;
/// generic over the mode so that each is compiled without the branches of the others.
struct FieldPayloadReader<Mode: FieldPayloadMode> {
    /// The zone that references point into: the record's.
    let zoneID: ZoneID

    /// The field count, then each field: key, tag, payload; keys strictly ascending by bytes.
    /// Returns the fields when the mode builds values, else an empty array.
    func readFields(from reader: inout ByteReader) throws(RecordDecodingError) -> [Record.Field] {
        let count = try reader.readCount()
        var fields: [Record.Field] = []
        if Mode.builds { fields.reserveCapacity(count) }
        var previousKey: UnsafeBufferPointer<UInt8>?
        for _ in 0..<count {
            let keyOffset = reader.offset
            let key = try reader.readIdentifierBytes(checked: Mode.checks)
            if Mode.checks, let previousKey, !previousKey.lexicographicallyPrecedes(key) {
                throw RecordDecodingError(.keysOutOfOrder, at: keyOffset)
            }
            previousKey = key
            let tag = try readTag(from: &reader)
            if let value = try readPayload(tag, depth: 0, from: &reader) {
                fields.append(Record.Field(key: String(decoding: key, as: UTF8.self), value: value))
            }
        }
        return fields
    }

    func readTag(from reader: inout ByteReader) throws(RecordDecodingError) -> RecordCodec.Tag {
        let start = reader.offset
        let byte = try reader.readByte()
        guard let tag = RecordCodec.Tag(rawValue: byte) else { throw RecordDecodingError(.unknownTag(byte), at: start) }
        return tag
    }

    /// A value without its tag (`depth` is how many lists enclose it): nil unless the mode builds.
    func readPayload(
        _ tag: RecordCodec.Tag, depth: Int, from reader: inout ByteReader
    ) throws(RecordDecodingError) -> FieldValue? {
        let start = reader.offset
        switch tag {
        case .string:
            let bytes = try reader.readBytes(try reader.readCount())
            if Mode.builds {
                // Checks while building (one pass); bytes already checked decode as they are.
                let string = Mode.checks ? String(validatingUTF8Bytes: bytes) : String(decoding: bytes, as: UTF8.self)
                guard let string else { throw RecordDecodingError(.invalidUTF8, at: start) }
                return .string(string)
            }
            guard !Mode.checks || bytes.isValidUTF8 else { throw RecordDecodingError(.invalidUTF8, at: start) }
            return nil
        case .int64:
            let value = try reader.readZigZag()
            return Mode.builds ? .int64(value) : nil
        case .double:
            let bits = try reader.readBigEndianUInt64()
            return Mode.builds ? .double(Double(bitPattern: bits)) : nil
        case .bool:
            let byte = try reader.readByte()
            guard !Mode.checks || byte <= 1 else { throw RecordDecodingError(.valueOutOfRange, at: start) }
            return Mode.builds ? .bool(byte == 1) : nil
        case .date:
            let date = try Mode.checks ? reader.readDate() : MillisecondDate.date(milliseconds: reader.readZigZag())
            return Mode.builds ? .date(date) : nil
        case .bytes:
            let bytes = try reader.readBytes(try reader.readCount())
            return Mode.builds ? .bytes(Array(bytes)) : nil
        case .reference:
            return try readReference(from: &reader).map(FieldValue.reference)
        case .location:
            let location = Location(
                latitude: Double(bitPattern: try reader.readBigEndianUInt64()),
                longitude: Double(bitPattern: try reader.readBigEndianUInt64()))
            guard !Mode.checks || location.isValid else { throw RecordDecodingError(.valueOutOfRange, at: start) }
            return Mode.builds ? .location(location) : nil
        case .list:
            return try readList(depth: depth + 1, from: &reader).map(FieldValue.list)
        }
    }

    /// An action byte, then the target's record name (1-byte length); the zone is the record's.
    private func readReference(from reader: inout ByteReader) throws(RecordDecodingError) -> Reference? {
        let start = reader.offset
        let action = Reference.Action(rawValue: try reader.readByte())
        guard !Mode.checks || action != nil else { throw RecordDecodingError(.valueOutOfRange, at: start) }
        let nameOffset = reader.offset
        let name = try reader.readBytes(Int(try reader.readByte()))
        guard !Mode.checks || NameProblem.ofRecordName(name) == nil else {
            throw RecordDecodingError(.invalidIdentifier, at: nameOffset)
        }
        guard Mode.builds, let action else { return nil }
        return Reference(recordID: RecordID(recordName: String(decoding: name, as: UTF8.self), zoneID: zoneID), action: action)
    }

    /// A count; when not zero, one tag for all elements, then the elements' payloads.
    private func readList(depth: Int, from reader: inout ByteReader) throws(RecordDecodingError) -> [FieldValue]? {
        guard !Mode.checks || depth <= RecordLimits.maximumListDepth else { throw reader.error(.listTooDeep) }
        let count = try reader.readCount()
        guard count > 0 else { return Mode.builds ? [] : nil }
        let tag = try readTag(from: &reader)
        var elements: [FieldValue] = []
        if Mode.builds { elements.reserveCapacity(count) }
        for _ in 0..<count {
            if let element = try readPayload(tag, depth: depth, from: &reader) { elements.append(element) }
        }
        return Mode.builds ? elements : nil
    }
}

/// Whether a ``FieldPayloadReader`` checks payloads (untrusted bytes) and whether it builds values.
protocol FieldPayloadMode {
    static var checks: Bool { get }
    static var builds: Bool { get }
}

/// The modes of ``FieldPayloadReader``.
enum PayloadModes {
    /// Checks and builds: the eager decoder.
    enum Decode: FieldPayloadMode { static let checks = true, builds = true }
    /// Checks, allocating nothing: ``StoredRecord``'s walk when it is created.
    enum Validate: FieldPayloadMode { static let checks = true, builds = false }
    /// Skips checked bytes: ``StoredRecord``'s lookups, past the fields not asked for.
    enum SkipChecked: FieldPayloadMode { static let checks = false, builds = false }
    /// Builds the values of checked bytes: ``StoredRecord``'s lookups and ``StoredRecord/materialized()``.
    enum BuildChecked: FieldPayloadMode { static let checks = false, builds = true }
}
