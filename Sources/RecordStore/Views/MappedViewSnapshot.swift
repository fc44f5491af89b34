import RecordLog

/// A ``MappedSnapshotView``'s snapshot, opened: the file mapped privately, its footer read and
/// every section's CRC-32C checked, for the view to read its sections in place.
public struct MappedViewSnapshot: Sendable {
    /// The file's last 8 bytes.
    static let magic = Array("RLVIEW01".utf8)
    /// The mapped file; ``MappedArray``s made from it keep it mapped.
    public let mapping: MappedFile
    /// Each section's bytes, in the order the view wrote them.
    private let sections: [Range<Int>]
    let storeID: [UInt8]
    let zones: [String: ViewSnapshotPosition]

    /// How many sections the view wrote.
    public var sectionCount: Int { sections.count }

    /// The bytes of section `index`, or nil when there is no such section.
    public func section(_ index: Int) -> UnsafeRawBufferPointer? {
        guard sections.indices.contains(index) else { return nil }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(mapping.bytes)[sections[index]])
    }

    /// The values section `index` holds, read in place; nil when there is no such section or its
    /// length is not a whole number of values.
    public func array<Element: BitwiseCopyable & Sendable>(_ index: Int, of type: Element.Type = Element.self) -> MappedArray<Element>? {
        section(index).flatMap { MappedArray(mapping: mapping, bytes: $0) }
    }

    /// Opens the snapshot at `path`; nil when there is none, or it is damaged or not one (the
    /// reason is `reject`ed).
    static func open(path: String, reject: (String) -> Void) -> MappedViewSnapshot? {
        guard let mapping = try? MappedFile(path: path) else { return nil }
        let bytes = UnsafeRawBufferPointer(mapping.bytes)
        let trailer = 4 + 4 + magic.count
        guard bytes.count >= trailer, Array(bytes.suffix(magic.count)) == magic else {
            reject("it does not end with the view snapshot magic")
            return nil
        }
        var tail = TokenBytes(bytes: Array(bytes.suffix(trailer)), position: 0)
        guard let footerLength = tail.uint32().map(Int.init), let footerCRC = tail.uint32(), footerLength <= bytes.count - trailer else {
            reject("its footer length is out of bounds")
            return nil
        }
        let footerBytes = Array(bytes[(bytes.count - trailer - footerLength)..<(bytes.count - trailer)])
        guard CRC32C.checksum(footerBytes) == footerCRC else {
            reject("its footer fails its CRC")
            return nil
        }
        guard let footer = Footer(footerBytes, fileSize: bytes.count - trailer - footerLength) else {
            reject("its footer is malformed")
            return nil
        }
        for (index, section) in footer.sections.enumerated() {
            var crc: UInt32 = 0
            do {
                try mapping.readThroughFile(offset: section.range.lowerBound, count: section.range.count) { crc = CRC32C.checksum($0, continuing: crc) }
            } catch {
                reject("section \(index) cannot be read: \(error)")
                return nil
            }
            guard crc == section.crc else {
                reject("section \(index) fails its CRC")
                return nil
            }
        }
        return MappedViewSnapshot(mapping: mapping, sections: footer.sections.map(\.range), storeID: footer.storeID, zones: footer.zones)
    }

    /// The footer's fields, read with bounds checks.
    private struct Footer {
        var storeID: [UInt8]
        var zones: [String: ViewSnapshotPosition] = [:]
        var sections: [(range: Range<Int>, crc: UInt32)] = []

        init?(_ bytes: [UInt8], fileSize: Int) {
            guard bytes.count >= 16 else { return nil }
            storeID = Array(bytes[0..<16])
            var reader = TokenBytes(bytes: bytes, position: 16)
            guard let zoneCount = reader.uint32(), zoneCount <= bytes.count else { return nil }
            for _ in 0..<zoneCount {
                guard let zone = reader.zonePosition(), zones[zone.zoneName] == nil else { return nil }
                zones[zone.zoneName] = .init(incarnation: zone.incarnation, offset: zone.offset)
            }
            guard let sectionCount = reader.uint32(), sectionCount <= bytes.count else { return nil }
            for _ in 0..<sectionCount {
                guard let offset = reader.integer(UInt64.self), let length = reader.integer(UInt64.self), let crc = reader.uint32(),
                    offset % UInt64(ViewSnapshotWriter.alignment) == 0, offset <= UInt64(fileSize), length <= UInt64(fileSize) - offset
                else { return nil }
                sections.append((Int(offset)..<Int(offset + length), crc))
            }
            guard reader.position == bytes.count else { return nil }
        }
    }
}
