/// The value bytes a change page keeps until it decodes them: borrowed where the log's batch
/// cache holds them, else copied into chunks of 64 KiB that are each allocated once at their
/// full size.
///
/// A value read from a kept batch is not copied: the page holds the batch (its `keeper`), which
/// keeps the bytes where they are even once the cache evicts it; copying them was a visible
/// share of a warm fetch (BENCHMARKS.md, "Figures behind the code").
///
/// A copy never moves: one growing array copied the bytes at every doubling and touched fresh
/// pages each time (on a first fetch in a process, most of a page's cost was those page faults).
/// The chunks stay below `malloc`'s mapping threshold (128 KiB unless it has grown), so they
/// come from memory the heap already holds: chunks of 1 MiB were each a fresh mapping, whose
/// page faults dominated a first fetch.
struct PageValues {
    /// Where one value's bytes are.
    enum Slot {
        case copied(chunk: Int, range: Range<Int>)
        /// In a batch that `keepers` holds.
        case borrowed(UnsafeRawBufferPointer)
    }

    static let chunkBytes = 64 << 10
    private var chunks: [[UInt8]] = []
    /// What keeps the borrowed bytes where they are, each once.
    private var keepers: [AnyObject] = []

    /// Where `bytes` will be found: in place when `keeper` keeps them there, else copied in.
    mutating func append(_ bytes: UnsafeRawBufferPointer, keptBy keeper: AnyObject?) -> Slot {
        guard let keeper else { return copy(bytes) }
        if keepers.last !== keeper { keepers.append(keeper) }
        return .borrowed(bytes)
    }

    private mutating func copy(_ bytes: UnsafeRawBufferPointer) -> Slot {
        if let last = chunks.indices.last, chunks[last].capacity - chunks[last].count >= bytes.count {
            let start = chunks[last].count
            chunks[last].append(contentsOf: bytes)
            return .copied(chunk: last, range: start..<chunks[last].count)
        }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(max(Self.chunkBytes, bytes.count))
        chunk.append(contentsOf: bytes)
        chunks.append(chunk)
        return .copied(chunk: chunks.count - 1, range: 0..<bytes.count)
    }

    /// Calls `body` with the bytes of `slot`.
    func withBytes<Result>(_ slot: Slot, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch slot {
        case .copied(let chunk, let range):
            try chunks[chunk].withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        case .borrowed(let bytes):
            try body(bytes)
        }
    }
}
