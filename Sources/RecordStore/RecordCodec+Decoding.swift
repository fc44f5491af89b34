import Foundation

extension RecordCodec {
    /// Decodes value bytes written by ``encode(_:into:)`` into the record with ID `recordID`
    /// (the log record's key and partition).
    ///
    /// The bytes are untrusted: anything malformed throws, nothing traps. A record that decodes is
    /// valid, has no changed keys, and encodes back to exactly `bytes`.
    ///
    /// - Throws: ``RecordDecodingError`` with the reason and the offset of the first problem.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, recordID: RecordID
    ) throws(RecordDecodingError) -> Record {
        guard bytes.count <= RecordLimits.maximumEncodedRecordSize else {
            throw RecordDecodingError(.tooLarge(bytes.count), at: 0)
        }
        do {
            try recordID.validate()
        } catch {
            throw RecordDecodingError(.invalidRecordID, at: 0)
        }
        var reader = ByteReader(bytes)
        let decoder = ValueDecoder(zoneID: recordID.zoneID)
        let version = try reader.readByte()
        guard version == RecordCodec.version else { throw RecordDecodingError(.unsupportedVersion(version), at: 0) }
        let recordType = try decoder.readIdentifier(from: &reader)
        let flagsOffset = reader.offset
        let flags = try reader.readByte()
        guard flags & ~SystemFieldFlag.all == 0 else { throw RecordDecodingError(.nonCanonical, at: flagsOffset) }
        let creationDate = flags & SystemFieldFlag.creationDate != 0 ? try decoder.readDate(from: &reader) : nil
        let modificationDate =
            flags & SystemFieldFlag.modificationDate != 0 ? try decoder.readDate(from: &reader) : nil
        let changeTag = flags & SystemFieldFlag.changeTag != 0 ? try decoder.readShortString(from: &reader) : nil
        let fields = try decoder.readFields(from: &reader)
        guard reader.remaining == 0 else { throw reader.error(.trailingBytes(reader.remaining)) }
        return Record(
            recordType: recordType, recordID: recordID, sortedFields: fields,
            creationDate: creationDate, modificationDate: modificationDate, recordChangeTag: changeTag)
    }

    /// Decodes value bytes held in an array; see ``decode(_:recordID:)-(UnsafeRawBufferPointer,_)``.
    public static func decode(_ bytes: [UInt8], recordID: RecordID) throws(RecordDecodingError) -> Record {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try decode(buffer, recordID: recordID) }
        }.get()
    }

    /// Decodes value bytes held in an array slice; see ``decode(_:recordID:)-(UnsafeRawBufferPointer,_)``.
    public static func decode(_ bytes: ArraySlice<UInt8>, recordID: RecordID) throws(RecordDecodingError) -> Record {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try decode(buffer, recordID: recordID) }
        }.get()
    }
}

/// Reads the parts of a value that need the record's zone (references point into it).
private struct ValueDecoder {
    let zoneID: ZoneID

    /// A record type or field key: a 1-byte length, then `[A-Za-z0-9_]`, starting with a letter.
    func readIdentifier(from reader: inout ByteReader) throws(RecordDecodingError) -> String {
        String(decoding: try readIdentifierBytes(from: &reader), as: UTF8.self)
    }

    func readIdentifierBytes(from reader: inout ByteReader) throws(RecordDecodingError) -> UnsafeBufferPointer<UInt8> {
        let start = reader.offset
        let bytes = try reader.readBytes(Int(try reader.readByte()))
        guard IdentifierProblem.of(bytes) == nil else { throw RecordDecodingError(.invalidIdentifier, at: start) }
        return bytes
    }

    /// A 1-byte length, then that many bytes of UTF-8.
    func readShortString(from reader: inout ByteReader) throws(RecordDecodingError) -> String {
        let start = reader.offset
        let bytes = try reader.readBytes(Int(try reader.readByte()))
        guard let string = String(validatingUTF8Bytes: bytes) else {
            throw RecordDecodingError(.invalidUTF8, at: start)
        }
        return string
    }

    func readDate(from reader: inout ByteReader) throws(RecordDecodingError) -> Date {
        let start = reader.offset
        let milliseconds = try reader.readZigZag()
        guard MillisecondDate.isInRange(milliseconds) else { throw RecordDecodingError(.valueOutOfRange, at: start) }
        return MillisecondDate.date(milliseconds: milliseconds)
    }

    /// The field count, then each field: key, tag, payload; keys strictly ascending by bytes.
    func readFields(from reader: inout ByteReader) throws(RecordDecodingError) -> [Record.Field] {
        let count = try reader.readCount()
        var fields: [Record.Field] = []
        fields.reserveCapacity(count)
        var previousKey: UnsafeBufferPointer<UInt8>?
        for _ in 0..<count {
            let keyOffset = reader.offset
            let key = try readIdentifierBytes(from: &reader)
            if let previousKey, !previousKey.lexicographicallyPrecedes(key) {
                throw RecordDecodingError(.keysOutOfOrder, at: keyOffset)
            }
            previousKey = key
            let tag = try readTag(from: &reader)
            let value = try readPayload(tag, depth: 0, from: &reader)
            fields.append(Record.Field(key: String(decoding: key, as: UTF8.self), value: value))
        }
        return fields
    }

    func readTag(from reader: inout ByteReader) throws(RecordDecodingError) -> RecordCodec.Tag {
        let start = reader.offset
        let byte = try reader.readByte()
        guard let tag = RecordCodec.Tag(rawValue: byte) else { throw RecordDecodingError(.unknownTag(byte), at: start) }
        return tag
    }

    /// A value without its tag; `depth` is how many lists enclose it.
    func readPayload(
        _ tag: RecordCodec.Tag, depth: Int, from reader: inout ByteReader
    ) throws(RecordDecodingError) -> FieldValue {
        let start = reader.offset
        switch tag {
        case .string:
            let bytes = try reader.readBytes(try reader.readCount())
            guard let string = String(validatingUTF8Bytes: bytes) else {
                throw RecordDecodingError(.invalidUTF8, at: start)
            }
            return .string(string)
        case .int64:
            return .int64(try reader.readZigZag())
        case .double:
            return .double(Double(bitPattern: try reader.readBigEndianUInt64()))
        case .bool:
            switch try reader.readByte() {
            case 0: return .bool(false)
            case 1: return .bool(true)
            default: throw RecordDecodingError(.valueOutOfRange, at: start)
            }
        case .date:
            return .date(try readDate(from: &reader))
        case .bytes:
            return .bytes(Array(try reader.readBytes(try reader.readCount())))
        case .reference:
            return .reference(try readReference(from: &reader))
        case .location:
            let location = Location(
                latitude: Double(bitPattern: try reader.readBigEndianUInt64()),
                longitude: Double(bitPattern: try reader.readBigEndianUInt64()))
            guard location.isValid else { throw RecordDecodingError(.valueOutOfRange, at: start) }
            return .location(location)
        case .list:
            return .list(try readList(depth: depth + 1, from: &reader))
        }
    }

    /// An action byte, then the target's record name (1-byte length); the zone is the record's.
    private func readReference(from reader: inout ByteReader) throws(RecordDecodingError) -> Reference {
        let start = reader.offset
        guard let action = Reference.Action(rawValue: try reader.readByte()) else {
            throw RecordDecodingError(.valueOutOfRange, at: start)
        }
        let nameOffset = reader.offset
        let name = try reader.readBytes(Int(try reader.readByte()))
        guard NameProblem.ofRecordName(name) == nil else { throw RecordDecodingError(.invalidIdentifier, at: nameOffset) }
        return Reference(recordID: RecordID(recordName: String(decoding: name, as: UTF8.self), zoneID: zoneID), action: action)
    }

    /// A count; when not zero, one tag for all elements, then the elements' payloads.
    private func readList(depth: Int, from reader: inout ByteReader) throws(RecordDecodingError) -> [FieldValue] {
        guard depth <= RecordLimits.maximumListDepth else { throw reader.error(.listTooDeep) }
        let count = try reader.readCount()
        guard count > 0 else { return [] }
        let tag = try readTag(from: &reader)
        var elements: [FieldValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try readPayload(tag, depth: depth, from: &reader))
        }
        return elements
    }
}
