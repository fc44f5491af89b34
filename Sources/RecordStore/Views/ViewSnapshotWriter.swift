import RecordLog
import StorageKit

/// Writes a ``MappedSnapshotView``'s snapshot file: the view's sections, each aligned to 64 bytes
/// and covered by a CRC-32C per MiB, then the footer that locates them (FORMAT.md §12).
package struct ViewSnapshotWriter {
    /// Where each section starts, how long it is, and the CRC-32C of each of its blocks.
    struct Section {
        var offset: Int
        var length: Int
        /// One per ``blockSize`` bytes of the section, the last one for what remains.
        var crcs: [UInt32]
    }

    /// A section is checked in blocks of this many bytes (the last may be shorter), so that a
    /// reader can check them on several cores.
    static let blockSize = 1 << 20

    /// Sections start at multiples of this, so that any plain value in them is aligned once mapped.
    static let alignment = 64
    private let file: DurableFileWriter
    private(set) var sections: [Section] = []
    /// Where the part being written starts: the index of its section numbered 0.
    private var partStart = 0

    init(file: DurableFileWriter) {
        self.file = file
    }

    /// Ends the previous section, if any, and starts `section` of the part being written: a
    /// section numbered 0 starts a new part; any other must be the one after the section before it.
    package mutating func startSection<Part: SnapshotSection>(_ section: Part) throws {
        if section.rawValue == 0 { partStart = sections.count }
        precondition(sections.count == partStart + section.rawValue, "section \(section) written out of order")
        try startSection()
    }

    /// Ends the previous section, if any, and starts the next one.
    private mutating func startSection() throws {
        try file.pad(toMultipleOf: Self.alignment)
        sections.append(Section(offset: file.position, length: 0, crcs: []))
    }

    /// Appends `bytes` to the current section.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!sections.isEmpty, "write before startSection()")
        try file.write(bytes)
        let last = sections.count - 1
        var rest = bytes
        while !rest.isEmpty {
            let used = sections[last].length % Self.blockSize
            if used == 0 { sections[last].crcs.append(0) }
            let piece = UnsafeRawBufferPointer(rebasing: rest.prefix(Self.blockSize - used))
            sections[last].crcs[sections[last].crcs.count - 1] = CRC32C.checksum(piece, continuing: sections[last].crcs[sections[last].crcs.count - 1])
            sections[last].length += piece.count
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(piece.count))
        }
    }

    /// Appends the elements of `values`, as they lie in memory.
    package mutating func write<Element: BitwiseCopyable>(_ values: UnsafeBufferPointer<Element>) throws {
        try write(UnsafeRawBufferPointer(values))
    }

    /// Appends the elements of `values`, then room for `spare` more (zero bytes), so that a
    /// reader's ``SnapshotSections/array(_:count:of:)`` can append that many in place.
    package mutating func write<Element: BitwiseCopyable>(_ values: UnsafeBufferPointer<Element>, spare: Int) throws {
        try write(values)
        var zeros = max(0, spare) * MemoryLayout<Element>.stride
        let chunk = [UInt8](repeating: 0, count: min(zeros, 1 << 16))
        while zeros > 0 {
            try chunk.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0.prefix(zeros))) }
            zeros -= min(zeros, chunk.count)
        }
    }

    /// How much room to leave after `count` elements that appends may need: enough that a
    /// session's first thousands of new records do not move the elements to the heap.
    package static func spare(after count: Int) -> Int {
        4096 + count / 64
    }

    /// Appends `value` as it lies in memory.
    package mutating func write<Value: BitwiseCopyable>(value: Value) throws {
        try withUnsafeBytes(of: value) { try write($0) }
    }

    /// Appends `meta`'s words to the current section.
    package mutating func write(meta: some SnapshotMeta) throws {
        try meta.words.withUnsafeBufferPointer { try write($0) }
    }

    /// Writes `strings` as two sections: `lengths`, a uint32 length per string, then `bytes`,
    /// their UTF-8 back to back (read by ``SnapshotSections/strings(lengths:bytes:)``).
    package mutating func writeStrings<Part: SnapshotSection>(_ strings: [String], lengths: Part, bytes: Part) throws {
        try startSection(lengths)
        try strings.map { UInt32($0.utf8.count) }.withUnsafeBufferPointer { try write($0) }
        try startSection(bytes)
        for string in strings {
            try Array(string.utf8).withUnsafeBytes { try write($0) }
        }
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
            for crc in section.crcs { TokenBytes.append(crc, to: &footer) }
        }
        let crc = CRC32C.checksum(footer)
        TokenBytes.append(UInt32(footer.count), to: &footer)
        TokenBytes.append(crc, to: &footer)
        footer += MappedViewSnapshot.magic
        try file.write(footer)
    }
}
