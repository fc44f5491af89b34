/// Appending big-endian integers and Kafka varints to a byte array. `package`: the record
/// codec in RecordStore writes the same primitives.
extension Array where Element == UInt8 {
    @inlinable @inline(__always)
    package mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    @inlinable @inline(__always)
    package mutating func appendUnsignedVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        append(UInt8(remaining))
    }

    /// Appends a zigzag varint (Kafka's `varint`).
    @inlinable @inline(__always)
    package mutating func appendVarint(_ value: Int32) {
        appendUnsignedVarint(UInt64(Zigzag.encode(value)))
    }

    /// Appends a zigzag varlong (Kafka's `varlong`).
    @inlinable @inline(__always)
    package mutating func appendVarlong(_ value: Int64) {
        appendUnsignedVarint(Zigzag.encode(value))
    }

    /// Overwrites `T` big-endian at `index`; the bytes must already exist.
    @inlinable
    package mutating func setInteger<T: FixedWidthInteger>(_ value: T, at index: Int) {
        withUnsafeMutableBytes { buffer in
            buffer.storeBytes(of: value.bigEndian, toByteOffset: index, as: T.self)
        }
    }
}

/// The number of bytes a varint takes, without writing it.
@usableFromInline package enum VarintSize {
    @inlinable @inline(__always)
    package static func unsigned(_ value: UInt64) -> Int {
        // One byte per started group of seven bits; zero still takes one byte.
        let bits = 64 - value.leadingZeroBitCount
        return Swift.max(1, (bits + 6) / 7)
    }

    @inlinable @inline(__always)
    package static func varint(_ value: Int32) -> Int { unsigned(UInt64(Zigzag.encode(value))) }

    @inlinable @inline(__always)
    package static func varlong(_ value: Int64) -> Int { unsigned(Zigzag.encode(value)) }
}
