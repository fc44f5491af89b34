import StorageKit

/// Recomputes the checksums of a mapped snapshot (FORMAT.md §12) for the bytes it holds.
enum MappedSnapshotSeal {
    static let trailerSize = 16
    static let blockSize = 1 << 20

    /// Calls `read` with `input` as given and, when resealing changes it, with the resealed bytes.
    static func readAsGivenAndResealed(_ input: [UInt8], _ read: ([UInt8]) -> Void) {
        read(input)
        if let resealed = resealed(input), resealed != input { read(resealed) }
    }

    /// `bytes` with each section's block CRCs (where the footer's section lies inside the file)
    /// and the footer's CRC rewritten; nil when the bytes do not end in a trailer.
    static func resealed(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= trailerSize else { return nil }
        let trailer = bytes.count - trailerSize
        let footerLength = integer(bytes, at: trailer, size: 4)
        guard footerLength <= trailer else { return nil }
        let footerStart = trailer - footerLength
        var sealed = bytes
        // The footer: store ID, zones, then the sections with their block CRCs.
        var position = footerStart + 16
        guard position + 4 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
        let zoneCount = integer(bytes, at: position, size: 4)
        position += 4
        for _ in 0..<min(zoneCount, footerLength) {
            guard position + 2 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
            position += 2 + integer(bytes, at: position, size: 2) + 16
        }
        guard position + 4 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
        let sectionCount = integer(bytes, at: position, size: 4)
        position += 4
        for _ in 0..<min(sectionCount, footerLength) {
            guard position + 16 <= trailer else { break }
            let offset = integer(bytes, at: position, size: 8)
            let length = integer(bytes, at: position + 8, size: 8)
            position += 16
            guard offset >= 0, length >= 0, offset <= footerStart, length <= footerStart - offset else { break }
            var block = offset
            while block < offset + length, position + 4 <= trailer {
                let end = min(block + blockSize, offset + length)
                store(CRC32C.checksum(Array(bytes[block..<end])), in: &sealed, at: position)
                position += 4
                block = end
            }
        }
        return finish(&sealed, footerStart: footerStart, trailer: trailer)
    }

    /// A well-formed snapshot `bytes` laid out again, with each section cut to the length
    /// `keep(index, bytes)` gives for it (at most its length; the sections come in order) and the checksums made for the new
    /// bytes; nil when `bytes` is not a snapshot. For seeds: a writer leaves room after some
    /// sections (§12.1, §12.2: zero bytes a reader ignores), hundreds of kilobytes that would
    /// make every execution of a fuzz target copy and checksum them.
    static func trimmed(_ bytes: [UInt8], keep: (_ section: Int, _ bytes: ArraySlice<UInt8>) -> Int) -> [UInt8]? {
        guard bytes.count >= trailerSize else { return nil }
        let trailer = bytes.count - trailerSize
        let footerLength = integer(bytes, at: trailer, size: 4)
        guard footerLength <= trailer else { return nil }
        let footerStart = trailer - footerLength
        var position = footerStart + 16
        let zoneCount = integer(bytes, at: position, size: 4)
        position += 4
        for _ in 0..<min(zoneCount, footerLength) { position += 2 + integer(bytes, at: position, size: 2) + 16 }
        guard position + 4 <= trailer else { return nil }
        // The store ID and zones stay as they are.
        var footer = Array(bytes[footerStart..<position])
        let sectionCount = integer(bytes, at: position, size: 4)
        position += 4
        var output: [UInt8] = []
        var sections: [(offset: Int, length: Int)] = []
        for index in 0..<min(sectionCount, footerLength) {
            guard position + 16 <= trailer else { return nil }
            let offset = integer(bytes, at: position, size: 8), length = integer(bytes, at: position + 8, size: 8)
            guard offset <= footerStart, length <= footerStart - offset else { return nil }
            position += 16 + 4 * ((length + blockSize - 1) / blockSize)
            output += [UInt8](repeating: 0, count: (64 - output.count % 64) % 64)
            sections.append((output.count, min(length, max(0, keep(index, bytes[offset..<(offset + length)])))))
            output += bytes[offset..<(offset + sections[sections.count - 1].length)]
        }
        guard position == trailer else { return nil }
        output += [UInt8](repeating: 0, count: (64 - output.count % 64) % 64)
        append(UInt32(sections.count), to: &footer)
        for section in sections {
            append(UInt64(section.offset), to: &footer)
            append(UInt64(section.length), to: &footer)
            var block = section.offset
            while block < section.offset + section.length {
                let end = min(block + blockSize, section.offset + section.length)
                append(CRC32C.checksum(Array(output[block..<end])), to: &footer)
                block = end
            }
        }
        let crc = CRC32C.checksum(footer)
        append(UInt32(footer.count), to: &footer)
        append(crc, to: &footer)
        return output + footer + Array(bytes.suffix(8))
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    private static func finish(_ sealed: inout [UInt8], footerStart: Int, trailer: Int) -> [UInt8] {
        store(CRC32C.checksum(Array(sealed[footerStart..<trailer])), in: &sealed, at: trailer + 4)
        return sealed
    }

    /// The little-endian uint64 at `index` of a section's bytes (0 past their end).
    static func word(_ section: ArraySlice<UInt8>, _ index: Int) -> Int {
        let start = section.startIndex + 8 * index
        guard index >= 0, start + 8 <= section.endIndex else { return 0 }
        let value = section[start..<(start + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value > UInt64(Int.max / 2) ? Int.max / 2 : Int(value)
    }

    /// A big-endian integer of `size` bytes at `position`, as an Int clamped to Int.max / 2
    /// (a length that large is refused by the callers' bounds).
    private static func integer(_ bytes: [UInt8], at position: Int, size: Int) -> Int {
        guard position >= 0, position + size <= bytes.count else { return Int.max / 2 }
        let value = bytes[position..<(position + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value > UInt64(Int.max / 2) ? Int.max / 2 : Int(value)
    }

    private static func store(_ value: UInt32, in bytes: inout [UInt8], at position: Int) {
        guard position >= 0, position + 4 <= bytes.count else { return }
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
}
