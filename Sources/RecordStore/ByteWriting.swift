// Appending the codec's primitives to a byte buffer: no allocation beyond the buffer's growth.
extension Array where Element == UInt8 {
    /// Appends `value` as an unsigned LEB128 varint: 7 bits a byte, least significant first,
    /// the high bit set on every byte but the last.
    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        append(UInt8(truncatingIfNeeded: rest))
    }

    /// Appends `value` zigzag-encoded ((n << 1) ^ (n >> 63)) as a varint, as Kafka's varlong.
    @inline(__always)
    mutating func appendZigZag(_ value: Int64) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends the 8 bytes of `value`, most significant first.
    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `string`, straight from its storage when it is contiguous.
    @inline(__always)
    mutating func appendUTF8(_ string: String) {
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if appended == nil { append(contentsOf: string.utf8) }
    }
}
