import Testing
@testable import RecordStore

/// The codec's varints read the same whether they lie far from the end of the bytes (read from
/// one 8-byte word) or near it (read byte by byte): every length, non-canonical forms refused.
struct ByteReaderVarintTests {
    /// `value` as an unsigned LEB128 varint.
    private static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    /// What a reader makes of `bytes` followed by `padding` bytes: the value and the offset after it.
    private static func read(_ bytes: [UInt8], padding: Int) throws(RecordDecodingError) -> (UInt64, Int) {
        let all = bytes + [UInt8](repeating: 0xFF, count: padding)
        let read = all.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            return Result { () throws(RecordDecodingError) in (try reader.readVarint(), reader.offset) }
        }
        return try read.get()
    }

    @Test("every length of varint reads the same near the end of the bytes and far from it")
    func everyLengthBothWays() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 127, 128, 300, UInt64.max, UInt64.max >> 1, 1 << 56, (1 << 56) - 1, 1 << 63]
        for bits in 1...64 { values.append(UInt64.random(in: 0...(UInt64.max >> (64 - bits)), using: &generator)) }
        for value in values {
            let bytes = Self.varint(value)
            for padding in [0, 1, 7, 8, 12] {
                let (read, end) = try Self.read(bytes, padding: padding)
                #expect(read == value && end == bytes.count, "\(value) with \(padding) bytes after it")
            }
        }
    }

    @Test("a varint longer than needed is refused at its start, near the end of the bytes and far from it")
    func nonCanonicalBothWays() {
        for length in 2...10 {
            // `length` bytes standing for a value that needs fewer: a last byte of zero.
            let bytes = [UInt8](repeating: 0x81, count: length - 1) + [0x00]
            for padding in [0, 8] {
                #expect(throws: RecordDecodingError(.nonCanonical, at: 0)) { try Self.read(bytes, padding: padding) }
            }
        }
    }

    @Test("a varint that runs past the bytes is truncated")
    func truncated() {
        #expect(throws: RecordDecodingError.self) { try Self.read([0x80, 0x80, 0x80], padding: 0) }
    }
}
