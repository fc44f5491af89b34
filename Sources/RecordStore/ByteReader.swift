import StorageKit
/// Reads the codec's primitives from untrusted bytes: every read is bounds-checked and throws
/// ``RecordDecodingError`` at the current offset instead of trapping.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    /// An error at the current offset.
    func error(_ reason: RecordDecodingError.Reason) -> RecordDecodingError {
        RecordDecodingError(reason, at: offset)
    }

    mutating func readByte() throws(RecordDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw error(.truncated) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `count` bytes, as typed bytes (the memory is only read as `UInt8`).
    mutating func readBytes(_ count: Int) throws(RecordDecodingError) -> UnsafeBufferPointer<UInt8> {
        guard count <= remaining else { throw error(.truncated) }
        defer { offset += count }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        return slice.assumingMemoryBound(to: UInt8.self)
    }

    /// An unsigned LEB128 varint of at most 10 bytes, in its shortest form.
    @inline(__always)
    mutating func readVarint() throws(RecordDecodingError) -> UInt64 {
        // Most varints (tags, counts, short lengths) are one byte.
        if offset < bytes.count, bytes[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(bytes[offset])
        }
        return try readLongVarint()
    }

    /// ``readVarint()`` past its one-byte case.
    private mutating func readLongVarint() throws(RecordDecodingError) -> UInt64 {
        let start = offset
        var index = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if shift == 63 && byte > 1 { throw RecordDecodingError(.nonCanonical, at: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                // A last byte of zero (after the first) means the varint was longer than needed.
                if byte == 0 && index - start > 1 { throw RecordDecodingError(.nonCanonical, at: start) }
                offset = index
                return result
            }
            shift += 7
        }
        offset = index
        throw error(.truncated)
    }

    /// A zigzag-encoded varint (Kafka's varlong).
    mutating func readZigZag() throws(RecordDecodingError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A varint length or count, which cannot exceed the bytes that remain (every element takes
    /// at least one byte), so that reserving capacity for it is bounded by the input's size.
    mutating func readCount() throws(RecordDecodingError) -> Int {
        let start = offset
        let value = try readVarint()
        guard value <= UInt64(remaining) else { throw RecordDecodingError(.invalidLength, at: start) }
        return Int(value)
    }

    /// 8 bytes, most significant first.
    mutating func readBigEndianUInt64() throws(RecordDecodingError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try readBytes(8) { value = value << 8 | UInt64(byte) }
        return value
    }
}
