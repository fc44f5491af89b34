/// The value bytes a change page keeps until it decodes them, appended into chunks of 64 KiB
/// that are each allocated once at their full size. A page never moves the bytes it holds: one
/// growing array copied them at every doubling and touched fresh pages each time (on a first
/// fetch in a process, most of a page's cost was those page faults). The chunks stay below
/// `malloc`'s mapping threshold (128 KiB unless it has grown), so they come from memory the heap
/// already holds: chunks of 1 MiB were each a fresh mapping, and in the benchmark's run their
/// page faults took 39% of a 10,000-change fetch.
struct PageValues {
    /// Where one value's bytes are.
    struct Slot {
        fileprivate var chunk: Int
        fileprivate var range: Range<Int>
    }

    static let chunkBytes = 64 << 10
    private var chunks: [[UInt8]] = []

    /// Copies `bytes` in and returns where they are.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Slot {
        if let last = chunks.indices.last, chunks[last].capacity - chunks[last].count >= bytes.count {
            let start = chunks[last].count
            chunks[last].append(contentsOf: bytes)
            return Slot(chunk: last, range: start..<chunks[last].count)
        }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(max(Self.chunkBytes, bytes.count))
        chunk.append(contentsOf: bytes)
        chunks.append(chunk)
        return Slot(chunk: chunks.count - 1, range: 0..<bytes.count)
    }

    /// Calls `body` with the bytes of `slot`.
    func withBytes<Result>(_ slot: Slot, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try chunks[slot.chunk].withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[slot.range])) }
    }
}
