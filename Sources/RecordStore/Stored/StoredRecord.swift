import Foundation
import StorageKit

/// A stored record read in place: its value bytes checked once, its fields decoded only when asked.
///
/// A replay hands views stored records (``MaterializedView/apply(saved:)``) so that a view that
/// needs two fields of a record builds two values, not the whole ``Record``. Creating one checks
/// every byte of the value as ``RecordCodec/decode(_:recordID:)-(UnsafeRawBufferPointer,_)`` does
/// and throws the same ``RecordDecodingError``, allocating nothing; a stored record that exists is
/// one that decodes.
///
/// Its bytes are borrowed (from the log's decompressed batch): use it only inside the call that
/// received it, and keep values, strings or ``materialized()`` of what must outlive it.
///
/// ```swift
/// mutating func apply(saved record: StoredRecord) {
///     guard record.hasRecordType("Note"), case .string(let text)? = record["content"] else { return }
///     texts[record.recordID.recordName] = text
/// }
/// ```
public struct StoredRecord {
    /// The record's name and zone.
    public let recordID: RecordID
    private let header: RecordValueHeader
    /// The value bytes from the field count to the end.
    private let fields: UnsafeRawBufferPointer

    /// Checks `bytes`, the value of the record `recordID`, without decoding its fields.
    ///
    /// - Throws: ``RecordDecodingError`` exactly when ``RecordCodec/decode(_:recordID:)-(UnsafeRawBufferPointer,_)`` would.
    package init(_ bytes: UnsafeRawBufferPointer, recordID: RecordID) throws(RecordDecodingError) {
        try self.init(bytes, recordID: recordID, zoneChecked: false)
    }

    /// Checks `bytes` as ``init(_:recordID:)`` does; with `zoneChecked`, the caller vouches for
    /// `recordID`'s zone (one of the database's zones) and only its record name is checked.
    init(_ bytes: UnsafeRawBufferPointer, recordID: RecordID, zoneChecked: Bool) throws(RecordDecodingError) {
        (header, fields) = try Self.check(bytes) { RecordValueHeader.isValid(recordID, zoneChecked: zoneChecked) }
        self.recordID = recordID
    }

    /// Whether ``init(_:recordID:)`` accepts `bytes` as the value of a record named `recordName`
    /// in a valid zone: the check a change fetch runs once per cached batch (``ChangeEventCheck``).
    static func accepts(_ bytes: UnsafeRawBufferPointer, recordName: UnsafeRawBufferPointer) -> Bool {
        (try? check(bytes) { NameProblem.ofStoredRecordName(recordName) == nil }) != nil
    }

    /// Checks `bytes` whole: the header, with `isValidID` for the record's ID, then every field.
    private static func check(
        _ bytes: UnsafeRawBufferPointer, isValidID: () -> Bool
    ) throws(RecordDecodingError) -> (RecordValueHeader, fields: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        let header = try RecordValueHeader(reading: &reader, checked: true, isValidID: isValidID)
        let fieldsStart = reader.offset
        // Validating reads no reference's zone: any will do.
        _ = try FieldPayloadReader<PayloadModes.Validate>(zoneID: .default).readFields(from: &reader)
        guard reader.remaining == 0 else { throw reader.error(.trailingBytes(reader.remaining)) }
        return (header, UnsafeRawBufferPointer(rebasing: bytes[fieldsStart...]))
    }

    /// Reads `bytes` that ``init(_:recordID:)`` accepted before (a replay checks records on its
    /// reading thread and folds them on another), skipping the checks that only reject.
    init(trusting bytes: UnsafeRawBufferPointer, recordID: RecordID) throws(RecordDecodingError) {
        var reader = ByteReader(bytes)
        header = try RecordValueHeader(reading: &reader, recordID: recordID, checked: false)
        self.recordID = recordID
        fields = UnsafeRawBufferPointer(rebasing: bytes[reader.offset...])
    }

    /// The app-defined record type.
    public var recordType: String { String(decoding: header.recordType, as: UTF8.self) }

    /// Whether the record type is `type`, compared as UTF-8 bytes, without building a string.
    public func hasRecordType(_ type: String) -> Bool {
        type.withUTF8Bytes { $0.hasSameBytes(as: header.recordType) }
    }

    /// When the record was first saved.
    public var creationDate: Date? { header.creationDate }
    /// When the record was last saved.
    public var modificationDate: Date? { header.modificationDate }
    /// The record's version tag.
    public var recordChangeTag: String? { header.changeTag.map { String(decoding: $0, as: UTF8.self) } }
    /// The change tag of the remote version a synced record was last in step with.
    package var syncChangeTag: String? { header.syncChangeTag.map { String(decoding: $0, as: UTF8.self) } }

    /// The value of the field `key`, decoded now, or nil when the record has no such field.
    public subscript(key: String) -> FieldValue? {
        guard let (tag, payload) = locate(key) else { return nil }
        var reader = ByteReader(payload)
        // The bytes were checked when the record was created: reading them cannot fail.
        return (try? FieldPayloadReader<PayloadModes.BuildChecked>(zoneID: recordID.zoneID).readPayload(tag, depth: 0, from: &reader)) ?? nil
    }

    /// Calls `body` with the UTF-8 bytes of the field `key` when it holds a string, else with nil.
    /// The bytes are borrowed from the log, as the record is: no string is built, so that a
    /// replay can copy them where it keeps them.
    public func withStringUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        body(borrowedText(key, .string))
    }

    /// Calls `body` with the UTF-8 bytes of the referenced record's name when the field `key`
    /// holds a reference, else with nil; borrowed as ``withStringUTF8(_:_:)``'s.
    public func withReferenceNameUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        body(borrowedText(key, .reference))
    }

    /// The bytes of a string, or of a reference's record name, in place; nil for any other field.
    private func borrowedText(_ key: String, _ kind: RecordCodec.Tag) -> UnsafeBufferPointer<UInt8>? {
        guard let (tag, payload) = locate(key), tag == kind else { return nil }
        var reader = ByteReader(payload)
        // The bytes were checked when the record was created: reading them cannot fail.
        if tag == .reference { _ = try? reader.readByte() }
        let count = tag == .reference ? (try? reader.readByte()).map(Int.init) : try? reader.readCount()
        return count.flatMap { try? reader.readBytes($0) }
    }

    /// The tag of the field `key` and the bytes from its payload to the end of the fields; nil
    /// when there is no such field. A static walk over the field bytes, so that no closure holds
    /// `self`: one that did copied the record (its ID's strings retained and released) on every
    /// field read.
    private func locate(_ key: String) -> (RecordCodec.Tag, UnsafeRawBufferPointer)? {
        let fields = self.fields
        return key.withUTF8Bytes { wanted in
            // The bytes were checked when the record was created: reading them cannot fail.
            (try? Self.locate(wanted, in: fields)) ?? nil
        }
    }

    private static func locate(
        _ wanted: UnsafeBufferPointer<UInt8>, in fields: UnsafeRawBufferPointer
    ) throws(RecordDecodingError) -> (RecordCodec.Tag, UnsafeRawBufferPointer)? {
        var reader = ByteReader(fields)
        // Skipping reads no reference's zone: any will do.
        let skip = FieldPayloadReader<PayloadModes.SkipChecked>(zoneID: .default)
        for _ in 0..<(try reader.readCount()) {
            let key = try reader.readIdentifierBytes(checked: false)
            let tag = try skip.readTag(from: &reader)
            if key.hasSameBytes(as: wanted) { return (tag, UnsafeRawBufferPointer(rebasing: fields[reader.offset...])) }
            // Keys ascend: past the wanted key, it is not there.
            if wanted.precedesBytes(of: key) { return nil }
            _ = try skip.readPayload(tag, depth: 0, from: &reader)
        }
        return nil
    }

    /// The whole record, as ``RecordCodec/decode(_:recordID:)-(UnsafeRawBufferPointer,_)`` returns it.
    public func materialized() -> Record {
        var reader = ByteReader(fields)
        // The bytes were checked when the record was created: reading them cannot fail.
        let fields = (try? FieldPayloadReader<PayloadModes.BuildChecked>(zoneID: recordID.zoneID).readFields(from: &reader)) ?? []
        return Record(
            recordType: recordType, recordID: recordID, sortedFields: fields,
            creationDate: creationDate, modificationDate: modificationDate, recordChangeTag: recordChangeTag,
            syncChangeTag: syncChangeTag, syncAuthor: header.syncAuthor)
    }
}
