import RecordLog

/// `follow`: the records appended to a live store after the follower was made, as they arrive,
/// until the task iterating it is cancelled.
///
/// A read-only `Log` sees the store as it was when opened, so each poll whose segment files
/// changed (size or modification time) reopens the store read-only (no lock, nothing written) and reads each zone from
/// where the last poll stopped. An append still being written is not seen until it is whole.
///
/// ```swift
/// let follower = try LogFollower(store: "/path/to/store", pollInterval: .milliseconds(200))
/// for try await record in follower { print(record.text()) }
/// ```
public struct LogFollower: AsyncSequence, Sendable {
    public typealias Element = InspectedRecord

    /// The store directory.
    public let store: String
    /// Only this zone, or every zone (zones created later included).
    public let zone: String?
    /// How long to wait between looks at the store when nothing new was found.
    public let pollInterval: Duration
    /// Where each zone's reading starts: its end offset when the follower was made (its start
    /// offset with `fromBeginning`). Zones created later are read from their start.
    let startOffsets: [String: Int64]

    /// Takes each zone's current end as the starting point, so every record appended after this
    /// returns is yielded.
    ///
    /// - Throws: ``InspectError/zoneNotFound(_:available:)``, or the log's error when the store
    ///   cannot be opened read-only.
    public init(store: String, zone: String? = nil, fromBeginning: Bool = false, pollInterval: Duration = .milliseconds(200)) throws {
        self.store = store
        self.zone = zone
        self.pollInterval = pollInterval
        let log = try Log(directory: store, options: LogOptions(readOnly: true))
        defer { try? log.close() }
        if let zone, !log.partitionNames.contains(zone) { throw InspectError.zoneNotFound(zone, available: log.partitionNames) }
        var offsets: [String: Int64] = [:]
        for name in log.partitionNames where zone == nil || name == zone {
            let partition = try log.partition(named: name)
            offsets[name] = fromBeginning ? partition.startOffset : partition.endOffset
        }
        startOffsets = offsets
    }

    /// An iterator that polls the store.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self, positions: startOffsets)
    }

    /// Yields buffered records, polling the store when the buffer is empty; ends (nil) when the
    /// task is cancelled.
    public struct Iterator: AsyncIteratorProtocol {
        let follower: LogFollower
        var positions: [String: Int64]
        var buffer: [InspectedRecord] = []
        /// The next record of `buffer` to yield.
        var nextInBuffer = 0
        var fingerprint: [String: String]?

        /// The next appended record; nil once the task is cancelled.
        public mutating func next() async throws -> InspectedRecord? {
            while nextInBuffer == buffer.count {
                if Task.isCancelled { return nil }
                buffer.removeAll(keepingCapacity: true)
                nextInBuffer = 0
                try poll()
                if buffer.isEmpty {
                    do { try await Task.sleep(for: follower.pollInterval) } catch { return nil }
                }
            }
            // By index: `removeFirst` moves every later record, which made a poll that found many
            // records quadratic (80,000 records took minutes).
            defer { nextInBuffer += 1 }
            return buffer[nextInBuffer]
        }

        private mutating func poll() throws {
            let current = StoreFingerprint.segmentSizes(store: follower.store)
            guard current != fingerprint else { return }
            let log: Log
            do {
                log = try Log(directory: follower.store, options: LogOptions(readOnly: true))
            } catch LogError.io {
                return  // a file came or went while listing: look again next time
            }
            defer { try? log.close() }
            fingerprint = current
            for name in log.partitionNames where follower.zone == nil || name == follower.zone {
                let partition = try log.partition(named: name)
                var from = positions[name] ?? partition.startOffset
                if partition.endOffset < from { from = partition.startOffset }  // deleted and created again
                guard partition.endOffset > from else { continue }
                buffer += try partition.records(from: from, to: partition.endOffset).map { InspectedRecord(zone: name, record: $0) }
                positions[name] = partition.endOffset
            }
        }
    }
}
