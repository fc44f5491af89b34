import StorageKit
/// A segment's time index, Kafka's `.timeindex` file: entries of (timestamp int64, relative
/// offset int32), big-endian, 12 bytes each. An entry says: up to and including this offset, no
/// record has a timestamp above this one. Timestamps strictly increase; offsets never decrease.
struct TimeIndex: Sendable, Equatable {
    static let entrySize = 12

    struct Entry: Sendable, Equatable {
        var timestamp: Int64
        var relativeOffset: Int32
    }

    private(set) var entries: [Entry] = []

    init() {}

    var lastTimestamp: Int64? { entries.last?.timestamp }

    /// Appends when `timestamp` is above the last entry's.
    mutating func maybeAppend(timestamp: Int64, relativeOffset: Int32) {
        if let last = entries.last, timestamp <= last.timestamp { return }
        entries.append(Entry(timestamp: timestamp, relativeOffset: relativeOffset))
    }

    /// The last entry whose timestamp is strictly below `timestamp`: every record at or before its
    /// offset is older than `timestamp`, so a search for the first record at or after it may start
    /// after that offset.
    func lastEntry(before timestamp: Int64) -> Entry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].timestamp < timestamp { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : entries[low - 1]
    }

    func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * Self.entrySize)
        for entry in entries {
            bytes.appendInteger(entry.timestamp)
            bytes.appendInteger(entry.relativeOffset)
        }
        return bytes
    }

    /// Parses and sanity-checks a time index file; nil when inconsistent.
    init?(parsing bytes: [UInt8], offsetSpan: Int64) {
        guard bytes.count % Self.entrySize == 0 else { return nil }
        var entries: [Entry] = []
        let valid = bytes.withUnsafeBytes { raw -> Bool in
            let reader = ByteReader(raw)
            var index = 0
            while index < raw.count {
                guard let timestamp = reader.getInteger(at: index, as: Int64.self),
                    let offset = reader.getInteger(at: index + 8, as: Int32.self),
                    offset >= 0, Int64(offset) < offsetSpan
                else { return false }
                if let last = entries.last, timestamp <= last.timestamp || offset < last.relativeOffset { return false }
                entries.append(Entry(timestamp: timestamp, relativeOffset: offset))
                index += Self.entrySize
            }
            return true
        }
        guard valid else { return nil }
        self.entries = entries
    }
}
