import StorageKit
/// A segment's sparse offset index, Kafka's `.index` file: entries of (relative offset int32,
/// file position int32), big-endian, 8 bytes each. An entry names a batch's **last** offset and
/// the position where that batch starts, as Kafka writes it; entries strictly increase in both.
struct OffsetIndex: Sendable, Equatable {
    static let entrySize = 8

    struct Entry: Sendable, Equatable {
        var relativeOffset: Int32
        var position: Int32
    }

    private(set) var entries: [Entry] = []

    init() {}

    mutating func append(relativeOffset: Int32, position: Int32) {
        entries.append(Entry(relativeOffset: relativeOffset, position: position))
    }

    /// The entry to start scanning from to find `relativeOffset`: the last one whose batch's last
    /// offset is at most it; nil when there is none, and the scan starts at the segment's start.
    func startEntry(for relativeOffset: Int64) -> Entry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Int64(entries[middle].relativeOffset) <= relativeOffset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : entries[low - 1]
    }

    /// The file's bytes.
    func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * Self.entrySize)
        for entry in entries {
            bytes.appendInteger(entry.relativeOffset)
            bytes.appendInteger(entry.position)
        }
        return bytes
    }

    /// Parses and sanity-checks an index file against its segment; nil when inconsistent.
    init?(parsing bytes: [UInt8], segmentSize: Int64, offsetSpan: Int64) {
        guard bytes.count % Self.entrySize == 0 else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(bytes.count / Self.entrySize)
        let valid = bytes.withUnsafeBytes { raw -> Bool in
            let reader = ByteReader(raw)
            var index = 0
            while index < raw.count {
                guard let offset = reader.getInteger(at: index, as: Int32.self),
                    let position = reader.getInteger(at: index + 4, as: Int32.self),
                    offset >= 0, Int64(offset) < offsetSpan, position >= 0, Int64(position) < segmentSize
                else { return false }
                if let last = entries.last, offset <= last.relativeOffset || position <= last.position { return false }
                entries.append(Entry(relativeOffset: offset, position: position))
                index += Self.entrySize
            }
            return true
        }
        guard valid else { return nil }
        self.entries = entries
    }
}
