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
        if let (value, length) = Self.varintInWord(at: offset, of: bytes) {
            guard length == 1 || value >> (7 * (length - 1)) != 0 else { throw RecordDecodingError(.nonCanonical, at: offset) }
            offset += length
            return value
        }
        return try readVarintByteByByte()
    }

    /// A varint of at most 8 bytes read from one 8-byte load where 8 bytes remain, with its
    /// length; nil for a longer one or near the end. A date's (6 bytes of zigzag milliseconds)
    /// cost ≈50 cycles byte by byte, 5 % of a change fetch (BENCHMARKS.md, "Figures behind the code").
    @inline(__always)
    private static func varintInWord(at offset: Int, of bytes: UnsafeRawBufferPointer) -> (UInt64, length: Int)? {
        guard bytes.count - offset >= 8, let base = bytes.baseAddress else { return nil }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        // The first byte without its continuation bit ends the varint.
        let ends = ~word & 0x8080_8080_8080_8080
        guard ends != 0 else { return nil }
        let length = (ends.trailingZeroBitCount + 1) / 8
        // Keep the varint's bytes, then pack their 7-bit groups: pairs, quads, then the two halves.
        var value = length == 8 ? word : word & ((1 << (8 * UInt64(length))) - 1)
        value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) >> 1)
        value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) >> 2)
        value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) >> 4)
        return (value, length)
    }

    /// ``readLongVarint()`` one byte at a time: near the end of the bytes, or past 8 bytes.
    private mutating func readVarintByteByByte() throws(RecordDecodingError) -> UInt64 {
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
