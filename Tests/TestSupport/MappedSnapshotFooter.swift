import Foundation

/// The zones a mapped snapshot's footer names, in the order it names them, read by hand from
/// FORMAT.md §12 (trailer: footer length and CRC, big-endian; footer: store ID, zone count, then
/// per zone a uint16-length name, incarnation and offset): so that a test can write a snapshot
/// again with its zones in the same order and compare the bytes.
public enum MappedSnapshotFooter {
    /// The footer's zone names in order; nil when `bytes` do not end in a footer that names them.
    public static func zoneNames(_ bytes: [UInt8]) -> [String]? {
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            return bytes[offset..<(offset + size)].reduce(0) { $0 << 8 | Int($1) }
        }
        let trailer = 16
        guard let footerLength = integer(at: bytes.count - trailer, size: 4),
            var position = Optional(bytes.count - trailer - footerLength + 16),
            let zoneCount = integer(at: position, size: 4)
        else { return nil }
        position += 4
        var names: [String] = []
        for _ in 0..<zoneCount {
            guard let length = integer(at: position, size: 2), position + 2 + length <= bytes.count else { return nil }
            names.append(String(decoding: bytes[(position + 2)..<(position + 2 + length)], as: UTF8.self))
            position += 2 + length + 16
        }
        return names
    }
}
