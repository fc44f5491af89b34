import StorageKit

// Reading: whole batches from an offset, found through the offset index, each validated again
// as it is read.
extension LogSegment {
    /// What a read that spans segments carries from one segment to the next.
    struct Fetch {
        /// The offset the read asked for.
        let offset: Int64
        /// Bytes the read may still return; only the first batch may exceed it.
        var budget: Int
        /// The next base offset, once a batch was read: batches continue across segments.
        var expected: Int64?
        var batches: [RecordBatch] = []
        /// Whether the budget stopped the read before the end of a segment.
        var full = false

        init(offset: Int64, maxBytes: Int) {
            self.offset = offset
            budget = maxBytes
        }

        /// Whether the read goes on (to the next batch or segment).
        var wantsMore: Bool { !full && (batches.isEmpty || budget > 0) }
    }

    /// Appends to `fetch` the whole batches of this segment that hold offsets at or after
    /// `fetch.offset`, while `fetch.wantsMore`. The scan starts at the position the offset index
    /// gives for the offset (the segment's start for an offset below it).
    ///
    /// The index is trusted only as far as it is confirmed: the batch at an entry's position must
    /// be whole and end at the entry's offset. One that does not means the entry is wrong (the
    /// index is derived data, and a damaged one can still look sound) or the batch's base offset
    /// is (no CRC covers it, and there is no batch before it to check it against). Either way
    /// the scan starts again at the segment's start, where every batch is checked against the
    /// one before it: a wrong entry costs a longer scan, and a damaged batch is refused there.
    ///
    /// - Throws: `LogError.corruptBatch` when the file no longer holds what was written.
    func read(into fetch: inout Fetch, maxBatchBytes: Int) throws {
        var entry = indexer.offsetIndex.startEntry(for: fetch.offset - baseOffset)
        var position = entry.map { Int64($0.position) } ?? 0
        var chunk: [UInt8] = []
        var chunkStart: Int64 = 0
        while position < size, fetch.wantsMore {
            let budget = fetch.budget
            let readSize = { (atLeast: Int) in
                Int(min(size - position, Int64(max(atLeast, budget, 64 << 10))))
            }
            let expected = fetch.expected, offset = fetch.offset
            func corrupt(_ problem: BatchProblem) -> LogError {
                .corruptBatch(file: path, position: position, offset: expected ?? offset, reason: problem.description)
            }
            // The whole batch at `position`, validated: where it lies in `chunk`, and its header.
            func batch() throws -> (local: Int, total: Int, header: RecordBatchHeader) {
                var local = Int(position - chunkStart)
                if chunk.isEmpty || local < 0 || chunk.count - local < RecordBatchHeader.logOverhead {
                    chunk = try file.read(at: position, count: readSize(RecordBatchHeader.logOverhead))
                    chunkStart = position
                    local = 0
                }
                let available = chunk.count - local
                guard available >= RecordBatchHeader.logOverhead,
                    let declared = chunk.withUnsafeBytes({ ByteReader($0).getInteger(at: local + 8, as: Int32.self) })
                else { throw corrupt(.incomplete(available: available, needed: RecordBatchHeader.logOverhead)) }
                let total = RecordBatchHeader.logOverhead + Int(declared)
                guard declared >= Int32(RecordBatchHeader.size - RecordBatchHeader.logOverhead), total <= maxBatchBytes,
                    position + Int64(total) <= size
                else { throw corrupt(.badLength(declared)) }
                if available < total {
                    chunk = try file.read(at: position, count: readSize(total))
                    chunkStart = position
                    local = 0
                    guard chunk.count >= total else { throw corrupt(.incomplete(available: chunk.count, needed: total)) }
                }
                // The batch at the segment's start starts at the segment's base offset, as the
                // recovery scan demands: a read that starts with it (alone, on a cache miss) has
                // no batch before it to check its base offset against, which no CRC covers.
                let expectedBase = expected ?? (position == 0 ? baseOffset : nil)
                let checked = chunk.withUnsafeBytes {
                    BatchValidation.check(
                        UnsafeRawBufferPointer(rebasing: $0[local..<(local + total)]), maxBatchBytes: maxBatchBytes,
                        expectedBaseOffset: expectedBase)
                }
                switch checked {
                case .success(let header): return (local, total, header)
                case .failure(let problem): throw corrupt(problem)
                }
            }
            let found: (local: Int, total: Int, header: RecordBatchHeader)
            if let indexed = entry {
                entry = nil
                guard let confirmed = try? batch(), confirmed.header.lastOffset == baseOffset + Int64(indexed.relativeOffset)
                else {
                    position = 0
                    continue
                }
                found = confirmed
            } else {
                found = try batch()
            }
            let (local, total, header) = found
            if header.lastOffset >= fetch.offset {
                // The budget is a cap: only the first batch may exceed it.
                guard fetch.batches.isEmpty || total <= fetch.budget else {
                    fetch.full = true
                    return
                }
                fetch.batches.append(RecordBatch(validated: header, bytes: chunk[local..<(local + total)]))
                fetch.budget -= total
            }
            fetch.expected = header.lastOffset + 1
            position += Int64(total)
        }
    }

    /// The offset from which a search for the first record with a timestamp at or after
    /// `timestamp` may start in this segment: after the last time-index entry below it.
    func searchStart(forTimestamp timestamp: Int64) -> Int64 {
        guard let entry = indexer.timeIndex.lastEntry(before: timestamp) else { return baseOffset }
        return baseOffset + Int64(entry.relativeOffset) + 1
    }
}
