/// Why a record's value bytes could not be decoded, and where.
///
/// Decoding reads bytes from disk or from another program, so it is kept apart from
/// ``RecordStoreError`` (which is about a caller's request): a decoding error means the stored
/// bytes are corrupt or were written by something else. The store reports it to its callers as
/// an `internalError`; tools such as log-inspect show the reason and offset as they are.
///
/// ```swift
/// do { _ = try RecordCodec.decode(bytes, recordID: id) }
/// catch { print(error.reason, error.offset) }   // e.g. truncated, 17
/// ```
package struct RecordDecodingError: Error, Sendable, Hashable {
    /// What is wrong with the bytes.
    package enum Reason: Sendable, Hashable {
        /// The bytes end before the value does.
        case truncated
        /// The first byte is not a version this decoder reads.
        case unsupportedVersion(UInt8)
        /// A value's tag byte is not one of the known tags.
        case unknownTag(UInt8)
        /// A string's bytes are not valid UTF-8.
        case invalidUTF8
        /// A record type, field key or referenced record name breaks the naming rules.
        case invalidIdentifier
        /// A length or count is larger than the bytes that remain.
        case invalidLength
        /// A varint is longer than needed or overflows, or reserved flag bits are set.
        case nonCanonical
        /// Field keys are not in strictly ascending byte order (unsorted or duplicated).
        case keysOutOfOrder
        /// A value is outside its range: a date, a location, a Boolean or a reference action.
        case valueOutOfRange
        /// Lists nest deeper than ``RecordLimits/maximumListDepth``.
        case listTooDeep
        /// Bytes follow the end of the value; the associated value is how many.
        case trailingBytes(Int)
        /// The value is larger than ``RecordLimits/maximumEncodedRecordSize``; the associated value is its size.
        case tooLarge(Int)
        /// The record ID given to the decoder breaks the naming rules.
        case invalidRecordID
    }

    /// What is wrong.
    package var reason: Reason
    /// The offset in the value bytes at which the problem was found.
    package var offset: Int

    /// Creates a decoding error.
    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}

extension RecordDecodingError: CustomStringConvertible {
    /// The reason and offset, and what to do.
    package var description: String {
        "The stored record value is malformed at byte \(offset) (\(reason)). The log is corrupt or was "
            + "written by another program; check it with log-inspect's verify, and restore the zone from a backup."
    }
}
