/// Zigzag mapping of signed integers to unsigned ones, so that small magnitudes of either sign
/// encode as short varints (Protocol Buffers' `sint`, Kafka's `varint`/`varlong`).
@usableFromInline package enum Zigzag {
    @inlinable @inline(__always)
    package static func encode(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    @inlinable @inline(__always)
    package static func encode(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inlinable @inline(__always)
    package static func decode(_ value: UInt32) -> Int32 {
        Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1)
    }

    @inlinable @inline(__always)
    package static func decode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
