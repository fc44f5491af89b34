/// A bounds-checked reader of a snapshot's big-endian fields, over its bytes before `end`: every
/// read of untrusted bytes fails (nil) rather than reading past them.
struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    var remaining: Int { end - position }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard size <= remaining else { return nil }
        defer { position += size }
        return T(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }

    /// A count of items of at least `itemSize` bytes each: nil if that many cannot follow.
    mutating func count(itemSize: Int) -> Int? {
        guard let count = integer(UInt32.self), Int(count) <= remaining / max(itemSize, 1) else { return nil }
        return Int(count)
    }

    /// The next `length` bytes as UTF-8.
    mutating func string(length: Int) -> String? {
        guard length <= remaining else { return nil }
        defer { position += length }
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]).assumingMemoryBound(to: UInt8.self)
        // Names are ASCII: decoding them needs no validation (nor the generic validator's
        // metadata lookups, a third of a checkpoint's decoding time).
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        return String(validating: utf8, as: UTF8.self)
    }

    /// A uint16 length and that many bytes of UTF-8.
    mutating func string() -> String? {
        integer(UInt16.self).flatMap { string(length: Int($0)) }
    }

    /// A uint32 count and that many strings.
    mutating func strings() -> [String]? {
        guard let count = count(itemSize: 2) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count {
            guard let string = string() else { return nil }
            strings.append(string)
        }
        return strings
    }
}
