extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF) — exactly the bytes `String(decoding:as:)` keeps as
    /// they are. Allocates nothing; ASCII runs are checked 32, then 8 bytes at a time, and an
    /// ASCII tail of fewer than 8 bytes with one or two loads (a record's short strings — change
    /// tags, titles, the ends of texts — were mostly checked byte by byte before).
    var isValidUTF8: Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = self.count
        var index = 0
        while index < count {
            let remaining = count &- index
            if remaining >= 32 {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)
                if word & Self.asciiMask == 0 {
                    index &+= 32
                    continue
                }
            }
            if remaining >= 8 {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & Self.asciiMask == 0 {
                    index &+= 8
                    continue
                }
            } else if Self.isASCIITail(raw, from: index, count: count) {
                return true
            }
            let lead = base[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            guard let length = Self.sequenceLength(at: index, lead: lead, in: self) else { return false }
            index &+= length
        }
        return true
    }

    /// The high bit of each of 8 bytes.
    private static var asciiMask: UInt64 { 0x8080_8080_8080_8080 }

    /// Whether the bytes from `index` to `count` (fewer than 8) are all ASCII, read with at most
    /// two loads that stay inside the buffer. A load may start before `index`, over bytes already
    /// checked: if those are not ASCII, this says false and the caller checks byte by byte.
    @inline(__always)
    private static func isASCIITail(_ raw: UnsafeRawPointer, from index: Int, count: Int) -> Bool {
        if count >= 8 { return raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) & asciiMask == 0 }
        if count &- index >= 4 {
            let words = raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                | raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            return words & 0x8080_8080 == 0
        }
        var union: UInt8 = 0
        for offset in index..<count { union |= raw.load(fromByteOffset: offset, as: UInt8.self) }
        return union < 0x80
    }

    /// The length of the multi-byte sequence starting with `lead` at `index`, or nil when it is
    /// not well-formed.
    private static func sequenceLength(at index: Int, lead: UInt8, in bytes: Self) -> Int? {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
