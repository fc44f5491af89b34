/// The binary encoding of a record's value bytes in the log (format version 1).
///
/// The value holds the record type, the system fields and the fields, sorted by key, so equal
/// records encode to equal bytes. The record name and zone are not in it: they are the log
/// record's key and partition, and the decoder takes the ``RecordID`` from the caller.
/// Fixed-width numbers are big-endian, as in Kafka; lengths and integers are varints.
/// FORMAT.md ("Record values") describes every byte.
///
/// ```swift
/// var buffer: [UInt8] = []
/// try RecordCodec.encode(note, into: &buffer)
/// let again = try RecordCodec.decode(buffer, recordID: note.recordID)
/// ```
///
/// Encoding validates the record and throws ``RecordStoreError``; decoding treats its input as
/// untrusted and throws ``RecordDecodingError`` for anything malformed, never crashing and never
/// allocating more than a small multiple of the input's size. Every record that decodes is valid
/// and encodes back to the very same bytes.
package enum RecordCodec {
    /// The format version written as the first byte; the decoder accepts only this one.
    package static let version: UInt8 = 1

    /// The tag byte before each field value; inside a non-empty list, once before all elements.
    enum Tag: UInt8 {
        case string = 0x01
        case int64 = 0x02
        case double = 0x03
        case bool = 0x04
        case date = 0x05
        case bytes = 0x06
        case reference = 0x07
        case location = 0x08
        case list = 0x09

        init(_ kind: FieldValue.Kind) {
            switch kind {
            case .string: self = .string
            case .int64: self = .int64
            case .double: self = .double
            case .bool: self = .bool
            case .date: self = .date
            case .bytes: self = .bytes
            case .reference: self = .reference
            case .location: self = .location
            case .list: self = .list
            }
        }
    }

    /// Bits of the flags byte saying which system fields follow; the other bits must be zero.
    enum SystemFieldFlag {
        static let creationDate: UInt8 = 0x01
        static let modificationDate: UInt8 = 0x02
        static let changeTag: UInt8 = 0x04
        /// The change tag of the remote version a synced record was last in step with.
        static let syncChangeTag: UInt8 = 0x08
        /// Who last edited a synced record, and when (``SyncAuthor``).
        static let syncAuthor: UInt8 = 0x10
        static let all: UInt8 = 0x1F
    }
}
