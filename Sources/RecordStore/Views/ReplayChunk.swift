/// A run of replayed events, checked on the replay's reading thread and folded on the calling
/// thread (``ReplayPipeline``): the value bytes of its saves copied back to back, so that folding
/// reads them without the log's decompression buffer, which the reader reuses. A read-only
/// database's catch-up hands its views what it read the same way (``ViewFoldEvents/read(_:)``).
///
/// A chunk belongs to one thread at a time; the pipeline hands it over under its locks.
final class ReplayChunk: @unchecked Sendable {
    enum Event {
        /// A save whose value (checked by ``StoredRecord/init(_:recordID:)``) is at this range of `bytes`.
        case saved(RecordID, Range<Int>)
        case other(ViewEvent)
    }

    /// Past this many value bytes a chunk is handed over: small enough to stay in cache.
    static let byteCapacity = 256 << 10

    // One thread at a time (handed over under the pipeline's locks): no run-time exclusivity
    // checks, which cost one call per record appended.
    @exclusivity(unchecked) private(set) var events: [Event] = []
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []

    /// An empty chunk with room for `reserving` value bytes: a replay's chunk for a full one.
    init(reserving: Int = ReplayChunk.byteCapacity + 4096) {
        bytes.reserveCapacity(reserving)
    }

    /// Whether the chunk should be handed over.
    var isFull: Bool { bytes.count >= Self.byteCapacity || events.count >= 4096 }
    var isEmpty: Bool { events.isEmpty }

    /// Adds a checked save, copying its value.
    func appendSave(_ id: RecordID, value: UnsafeRawBufferPointer) {
        let start = bytes.count
        bytes.append(contentsOf: value)
        events.append(.saved(id, start..<bytes.count))
    }

    func appendOther(_ event: ViewEvent) {
        events.append(.other(event))
    }

    /// Empties the chunk for reuse, keeping its memory.
    func reset() {
        events.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// How many events ahead of the fold `upcoming` is told of a save.
    static let lookahead = 8

    /// Calls `saved` and `other` with the events in order, each save read in place, and
    /// `upcoming` with the id of each save ``lookahead`` events before it.
    func fold(saved: (StoredRecord) -> Void, other: (ViewEvent) -> Void, upcoming: (RecordID) -> Void = { _ in }) throws {
        try bytes.withUnsafeBytes { base in
            for index in events.indices.prefix(Self.lookahead) {
                if case .saved(let id, _) = events[index] { upcoming(id) }
            }
            for index in events.indices {
                if index + Self.lookahead < events.count, case .saved(let id, _) = events[index + Self.lookahead] { upcoming(id) }
                let event = events[index]
                switch event {
                case .saved(let id, let range):
                    saved(try StoredRecord(trusting: UnsafeRawBufferPointer(rebasing: base[range]), recordID: id))
                case .other(let event):
                    other(event)
                }
            }
        }
    }
}
