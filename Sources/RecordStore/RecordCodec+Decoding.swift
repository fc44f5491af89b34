import Foundation
import StorageKit

extension RecordCodec {
    /// Decodes value bytes written by ``encode(_:into:)`` into the record with ID `recordID`
    /// (the log record's key and partition).
    ///
    /// The bytes are untrusted: anything malformed throws, nothing traps. A record that decodes is
    /// valid, has no changed keys, and encodes back to exactly `bytes`.
    ///
    /// - Throws: ``RecordDecodingError`` with the reason and the offset of the first problem.
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, recordID: RecordID
    ) throws(RecordDecodingError) -> Record {
        try decode(bytes, recordID: recordID, zoneChecked: false)
    }

    /// Decodes as ``decode(_:recordID:)-(UnsafeRawBufferPointer,_)``; with `zoneChecked`, the
    /// caller vouches for `recordID`'s zone (one of the database's zones) and only its record
    /// name is checked.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, recordID: RecordID, zoneChecked: Bool
    ) throws(RecordDecodingError) -> Record {
        var reader = ByteReader(bytes)
        let header = try RecordValueHeader(reading: &reader, recordID: recordID, zoneChecked: zoneChecked)
        let fields = try FieldPayloadReader<PayloadModes.Decode>(zoneID: recordID.zoneID).readFields(from: &reader)
        guard reader.remaining == 0 else { throw reader.error(.trailingBytes(reader.remaining)) }
        return Record(
            recordType: String(decoding: header.recordType, as: UTF8.self), recordID: recordID, sortedFields: fields,
            creationDate: header.creationDate, modificationDate: header.modificationDate,
            recordChangeTag: header.changeTag.map { String(decoding: $0, as: UTF8.self) },
            syncChangeTag: header.syncChangeTag.map { String(decoding: $0, as: UTF8.self) }, syncAuthor: header.syncAuthor)
    }

    /// Decodes value bytes held in an array; see ``decode(_:recordID:)-(UnsafeRawBufferPointer,_)``.
    package static func decode(_ bytes: [UInt8], recordID: RecordID) throws(RecordDecodingError) -> Record {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try decode(buffer, recordID: recordID) }
        }.get()
    }

    /// Decodes value bytes held in an array slice; see ``decode(_:recordID:)-(UnsafeRawBufferPointer,_)``.
    package static func decode(_ bytes: ArraySlice<UInt8>, recordID: RecordID) throws(RecordDecodingError) -> Record {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try decode(buffer, recordID: recordID) }
        }.get()
    }
}
