/// A bounds-checked cursor over untrusted bytes.
///
/// Every read returns `nil` instead of trapping when the bytes run short, in the manner of
/// swift-nio's `ByteBuffer`: `get…` reads at an index without moving, `read…` moves the cursor.
/// Integers are big-endian, as in Kafka's formats. The reader borrows its buffer: use it only
/// inside the `withUnsafeBytes` scope that produced the buffer.
@usableFromInline package struct ByteReader {
    // @usableFromInline: the @inlinable reads below must reach these from other modules, or
    // their callers there get the unspecialized generic entry points (measured in RecordLog:
    // every integer of a batch header and record read through `_swift_getGenericMetadata`).
    @usableFromInline package let bytes: UnsafeRawBufferPointer
    @usableFromInline package private(set) var position: Int

    @inlinable
    package init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    @inlinable
    package var remaining: Int { bytes.count - position }
    @inlinable
    package var isAtEnd: Bool { position >= bytes.count }

    /// A big-endian integer at `index`, or nil when it would run past the end.
    @inlinable
    package func getInteger<T: FixedWidthInteger>(at index: Int, as: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard index >= 0, index <= bytes.count - size else { return nil }
        return T(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: T.self))
    }

    @inlinable
    package mutating func readInteger<T: FixedWidthInteger>(as: T.Type = T.self) -> T? {
        guard let value = getInteger(at: position, as: T.self) else { return nil }
        position += MemoryLayout<T>.size
        return value
    }

    /// Moves past `count` bytes and returns the range they occupy, or nil when short.
    @inlinable
    package mutating func readRange(count: Int) -> Range<Int>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return position..<(position + count)
    }

    /// An unsigned LEB128 varint of at most `maxBytes` bytes; nil when short or over-long.
    @inlinable
    package mutating func readUnsignedVarint(maxBytes: Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        for _ in 0..<maxBytes {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                position = index
                return result
            }
            shift += 7
        }
        return nil
    }

    /// A zigzag-encoded 32-bit varint (Kafka's `varint`): at most 5 bytes, no bits beyond 32.
    @inlinable @inline(__always)
    package mutating func readVarint() -> Int32? {
        // Most of a record's varints (lengths, counts, small deltas) are one byte: read inline.
        if position < bytes.count, case let byte = bytes[position], byte < 0x80 {
            position += 1
            return Zigzag.decode(UInt32(byte))
        }
        return readLongVarint()
    }

    /// ``readVarint()`` past its one-byte case.
    @usableFromInline package mutating func readLongVarint() -> Int32? {
        let start = position
        guard let raw = readUnsignedVarint(maxBytes: 5), raw <= UInt64(UInt32.max) else {
            position = start
            return nil
        }
        return Zigzag.decode(UInt32(raw))
    }

    /// A zigzag-encoded 64-bit varint (Kafka's `varlong`): at most 10 bytes, no bits beyond 64.
    @inlinable
    package mutating func readVarlong() -> Int64? {
        let start = position
        guard let raw = readUnsignedVarint(maxBytes: 10) else { return nil }
        // The tenth byte may carry only the top bit of a 64-bit value.
        if position - start == 10, bytes[position - 1] > 0x01 {
            position = start
            return nil
        }
        return Zigzag.decode(raw)
    }
}
