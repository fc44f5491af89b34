/// Maps any zone name — any Unicode string — to one safe directory name.
///
/// Bytes of `[A-Za-z0-9_-]` stand for themselves; every other UTF-8 byte becomes `%XX`
/// (uppercase hex). So `/`, `.`, `..`, NUL and control characters never reach the file system,
/// and the mapping is one-to-one. A result over 200 bytes keeps a 150-byte prefix (cut before a
/// `%` escape) and appends `~` and the 16-hex-digit FNV-1a-64 hash of the name's UTF-8 bytes;
/// the exact name is kept in the partition's `zone.name` file, which resolves such a collision.
package enum ZoneDirectoryName {
    static let maximumLength = 200
    static let prefixLength = 150

    /// The directory name for `zone`.
    ///
    /// - Throws: `LogError.invalidPartitionName` for the empty string.
    package static func encode(_ zone: String) throws -> String {
        return try LogError.translating {
            guard !zone.isEmpty else { throw LogError.invalidPartitionName(zone, reason: "a partition name cannot be empty") }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(zone.utf8.count)
            for byte in zone.utf8 {
                if isPlain(byte) {
                    escaped.append(byte)
                } else {
                    escaped.append(UInt8(ascii: "%"))
                    escaped.append(hexDigit(byte >> 4))
                    escaped.append(hexDigit(byte & 0x0F))
                }
            }
            if escaped.count > maximumLength {
                var cut = prefixLength
                // Do not split an escape: back up to before a '%' in the last two bytes.
                if escaped[cut - 1] == UInt8(ascii: "%") { cut -= 1 } else if escaped[cut - 2] == UInt8(ascii: "%") { cut -= 2 }
                escaped.removeSubrange(cut...)
                escaped.append(UInt8(ascii: "~"))
                let hash = fnv1a64(zone.utf8)
                for shift in stride(from: 60, through: 0, by: -4) {
                    escaped.append(hexDigit(UInt8((hash >> UInt64(shift)) & 0x0F)))
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        }
    }

    /// The zone name a directory name stands for, or nil when it cannot be recovered from the
    /// directory name alone (an abbreviated name, or not a name `encode` makes).
    static func decode(_ directoryName: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(directoryName.utf8).makeIterator()
        while let byte = iterator.next() {
            if isPlain(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: "%"), let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) {
                bytes.append(high << 4 | low)
            } else {
                return nil
            }
        }
        guard let zone = String(validating: bytes, as: UTF8.self), (try? encode(zone)) == directoryName else { return nil }
        return zone
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
