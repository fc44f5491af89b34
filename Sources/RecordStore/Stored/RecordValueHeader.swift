import Foundation
import StorageKit

/// The part of a record's value bytes before its fields — version, record type, system fields —
/// read and checked without allocating. The eager decoder and ``StoredRecord`` both start here.
struct RecordValueHeader {
    /// The record type's bytes, checked against the identifier rules.
    let recordType: UnsafeBufferPointer<UInt8>
    let creationDate: Date?
    let modificationDate: Date?
    /// The change tag's bytes, checked to be UTF-8.
    let changeTag: UnsafeBufferPointer<UInt8>?
    /// The sync change tag's bytes (a synced record's remote version), checked to be UTF-8.
    let syncChangeTag: UnsafeBufferPointer<UInt8>?
    /// Who last edited a synced record, and when.
    let syncAuthor: SyncAuthor?

    /// Checks the size and `recordID`, then reads the header, leaving `reader` at the field count.
    /// With `checked` false, reads bytes that were checked before (by this initializer) and
    /// skips the checks that only reject. With `zoneChecked`, the caller vouches for the ID's
    /// zone (the database's own zone, which was checked when it was created): only the record
    /// name, read from the log, is checked: checking the zone again on every change read showed
    /// in profiles of reading changes in place (BENCHMARKS.md, "Figures behind the code").
    ///
    /// - Throws: ``RecordDecodingError`` at the first problem, as ``RecordCodec/decode(_:recordID:)-(UnsafeRawBufferPointer,_)``.
    init(
        reading reader: inout ByteReader, recordID: RecordID, checked: Bool = true, zoneChecked: Bool = false
    ) throws(RecordDecodingError) {
        try self.init(reading: &reader, checked: checked) { Self.isValid(recordID, zoneChecked: zoneChecked) }
    }

    /// Reads the header as ``init(reading:recordID:checked:zoneChecked:)`` does, with
    /// `isValidID` telling whether the record's ID is valid (asked only when `checked`): the
    /// batch cache's check has the record name's bytes, not a ``RecordID``.
    init(reading reader: inout ByteReader, checked: Bool, isValidID: () -> Bool) throws(RecordDecodingError) {
        if checked {
            guard reader.remaining <= RecordLimits.maximumEncodedRecordSize else {
                throw RecordDecodingError(.tooLarge(reader.remaining), at: 0)
            }
            guard isValidID() else { throw RecordDecodingError(.invalidRecordID, at: 0) }
        }
        let version = try reader.readByte()
        guard version == RecordCodec.version else { throw RecordDecodingError(.unsupportedVersion(version), at: 0) }
        recordType = try reader.readIdentifierBytes(checked: checked)
        let flagsOffset = reader.offset
        let flags = try reader.readByte()
        guard flags & ~RecordCodec.SystemFieldFlag.all == 0 else { throw RecordDecodingError(.nonCanonical, at: flagsOffset) }
        creationDate = flags & RecordCodec.SystemFieldFlag.creationDate != 0 ? try reader.readDate() : nil
        modificationDate = flags & RecordCodec.SystemFieldFlag.modificationDate != 0 ? try reader.readDate() : nil
        changeTag = flags & RecordCodec.SystemFieldFlag.changeTag != 0 ? try reader.readTagBytes(checked: checked) : nil
        syncChangeTag = flags & RecordCodec.SystemFieldFlag.syncChangeTag != 0 ? try reader.readTagBytes(checked: checked) : nil
        if flags & RecordCodec.SystemFieldFlag.syncAuthor != 0 {
            let editedAt = try reader.readZigZag()
            syncAuthor = SyncAuthor(editedAt: editedAt, device: Array(try reader.readBytes(Int(try reader.readByte()))))
        } else {
            syncAuthor = nil
        }
    }

    /// Whether `recordID` follows CloudKit's rules, as ``RecordID/validate()`` checks them; only
    /// its record name when `zoneChecked`.
    static func isValid(_ recordID: RecordID, zoneChecked: Bool) -> Bool {
        guard recordID.recordName.withUTF8Bytes(NameProblem.ofStoredRecordName) == nil else { return false }
        guard !zoneChecked else { return true }
        do {
            try recordID.zoneID.validate()
            return true
        } catch {
            return false
        }
    }
}

extension ByteReader {
    /// A change tag: a short string of UTF-8.
    mutating func readTagBytes(checked: Bool) throws(RecordDecodingError) -> UnsafeBufferPointer<UInt8> {
        let start = offset
        let bytes = try readBytes(Int(try readByte()))
        guard !checked || bytes.isValidUTF8 else { throw RecordDecodingError(.invalidUTF8, at: start) }
        return bytes
    }

    /// A record type or field key: a 1-byte length, then `[A-Za-z0-9_]`, starting with a letter.
    mutating func readIdentifierBytes(checked: Bool = true) throws(RecordDecodingError) -> UnsafeBufferPointer<UInt8> {
        let start = offset
        let bytes = try readBytes(Int(try readByte()))
        guard !checked || IdentifierProblem.of(bytes) == nil else { throw RecordDecodingError(.invalidIdentifier, at: start) }
        return bytes
    }

    /// A date: zigzag milliseconds since 1970, within the stored range.
    mutating func readDate() throws(RecordDecodingError) -> Date {
        let start = offset
        let milliseconds = try readZigZag()
        guard MillisecondDate.isInRange(milliseconds) else { throw RecordDecodingError(.valueOutOfRange, at: start) }
        return MillisecondDate.date(milliseconds: milliseconds)
    }
}
