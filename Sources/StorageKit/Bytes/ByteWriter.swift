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

/// Kafka varints written through a pointer, into memory the caller made room in: for a writer
/// that frames many small fields, where an array append per byte costs more than the byte.
package enum VarintWriter {
    /// Writes `value` as an unsigned varint at `pointer`; returns the bytes written (1 to 10).
    @inlinable @inline(__always)
    package static func putUnsigned(_ value: UInt64, at pointer: UnsafeMutableRawPointer) -> Int {
        var remaining = value
        var count = 0
        while remaining >= 0x80 {
            pointer.storeBytes(of: UInt8(truncatingIfNeeded: remaining) | 0x80, toByteOffset: count, as: UInt8.self)
            remaining >>= 7
            count += 1
        }
        pointer.storeBytes(of: UInt8(remaining), toByteOffset: count, as: UInt8.self)
        return count + 1
    }

    /// Writes a zigzag varint (Kafka's `varint`) at `pointer`; returns the bytes written.
    @inlinable @inline(__always)
    package static func putVarint(_ value: Int32, at pointer: UnsafeMutableRawPointer) -> Int {
        putUnsigned(UInt64(Zigzag.encode(value)), at: pointer)
    }

    /// Writes a zigzag varlong (Kafka's `varlong`) at `pointer`; returns the bytes written.
    @inlinable @inline(__always)
    package static func putVarlong(_ value: Int64, at pointer: UnsafeMutableRawPointer) -> Int {
        putUnsigned(Zigzag.encode(value), at: pointer)
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
