import RecordLog

/// Writes a ``MappedSnapshotView``'s snapshot file: the view's sections, each aligned to 64 bytes
/// and covered by its own CRC-32C, then the footer that locates them (FORMAT.md §12).
public struct ViewSnapshotWriter {
    /// Where each section starts, how long it is, and its CRC-32C.
    struct Section {
        var offset: Int
        var length: Int
        var crc: UInt32
    }

    /// Sections start at multiples of this, so that any plain value in them is aligned once mapped.
    static let alignment = 64
    private let file: DurableFileWriter
    private(set) var sections: [Section] = []

    init(file: DurableFileWriter) {
        self.file = file
    }

    /// Ends the previous section, if any, and starts the next one.
    public mutating func startSection() throws {
        try file.pad(toMultipleOf: Self.alignment)
        sections.append(Section(offset: file.position, length: 0, crc: 0))
    }

    /// Appends `bytes` to the current section.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!sections.isEmpty, "write before startSection()")
        try file.write(bytes)
        sections[sections.count - 1].length += bytes.count
        sections[sections.count - 1].crc = CRC32C.checksum(bytes, continuing: sections[sections.count - 1].crc)
    }

    /// Appends the elements of `values`, as they lie in memory.
    public mutating func write<Element: BitwiseCopyable>(_ values: UnsafeBufferPointer<Element>) throws {
        try write(UnsafeRawBufferPointer(values))
    }

    /// Appends `value` as it lies in memory.
    public mutating func write<Value: BitwiseCopyable>(value: Value) throws {
        try withUnsafeBytes(of: value) { try write($0) }
    }

    /// Writes the footer, after the last section.
    func finish(storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)]) throws {
        try file.pad(toMultipleOf: Self.alignment)
        var footer: [UInt8] = []
        footer += storeID
        TokenBytes.append(UInt32(zones.count), to: &footer)
        for zone in zones {
            TokenBytes.append(UInt16(zone.name.utf8.count), to: &footer)
            footer += Array(zone.name.utf8)
            TokenBytes.append(zone.incarnation, to: &footer)
            TokenBytes.append(zone.offset, to: &footer)
        }
        TokenBytes.append(UInt32(sections.count), to: &footer)
        for section in sections {
            TokenBytes.append(UInt64(section.offset), to: &footer)
            TokenBytes.append(UInt64(section.length), to: &footer)
            TokenBytes.append(section.crc, to: &footer)
        }
        let crc = CRC32C.checksum(footer)
        TokenBytes.append(UInt32(footer.count), to: &footer)
        TokenBytes.append(crc, to: &footer)
        footer += MappedViewSnapshot.magic
        try file.write(footer)
    }
}
