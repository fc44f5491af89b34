import StorageKit
/// Writes the record codec's bytes into memory sized beforehand by an upper bound of the
/// record's size (`ZonePlanner.encodedSizeBound`): a store and a bounds check per write, where
/// appending to an array checked its capacity and uniqueness for every byte. Writing past the
/// capacity stops the program (a wrong bound is a bug), never memory it does not own.
struct BoundedByteWriter {
    private let base: UnsafeMutableRawPointer?
    private let capacity: Int
    /// How many bytes were written.
    private(set) var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    @inline(__always)
    private mutating func reserve(_ size: Int) -> UnsafeMutableRawPointer {
        guard count + size <= capacity, let base else { preconditionFailure("a record's encoded size exceeded its bound") }
        defer { count += size }
        return base + count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count).copyMemory(from: source, byteCount: bytes.count)
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 bytes of `string`, straight from its storage when it is contiguous.
    mutating func appendUTF8(_ string: String) {
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if appended == nil { append(contentsOf: Array(string.utf8)) }
    }

    /// A big-endian integer.
    @inline(__always)
    mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size).storeBytes(of: value.bigEndian, as: T.self)
    }

    /// Kafka's unsigned varint: seven bits a byte, low first, the continuation bit on all but
    /// the last; sized first, so one bounds check covers its bytes.
    @inline(__always)
    mutating func appendUnsignedVarint(_ value: UInt64) {
        if value < 0x80 { return append(UInt8(value)) }
        let size = (64 - value.leadingZeroBitCount + 6) / 7
        let bytes = reserve(size)
        var remaining = value
        for index in 0..<(size - 1) {
            bytes.storeBytes(of: UInt8(truncatingIfNeeded: remaining) | 0x80, toByteOffset: index, as: UInt8.self)
            remaining >>= 7
        }
        bytes.storeBytes(of: UInt8(remaining), toByteOffset: size - 1, as: UInt8.self)
    }

    /// Kafka's zigzag varlong.
    @inline(__always)
    mutating func appendVarlong(_ value: Int64) {
        appendUnsignedVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}
