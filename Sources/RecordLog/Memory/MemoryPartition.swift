import StorageKit
import Synchronization

/// A partition kept in memory: the batches as a ``Partition`` would write them, in an array.
///
/// Each appended batch is stored as its encoded bytes with its base offset set (LZ4 included),
/// checked once as it is appended (length, CRC, counts, frame header: what a ``Partition`` checks
/// as it reads), and read back through the same decoders, so its records are the very values a
/// ``Partition`` returns. An append is durable as soon as it is written: there is nothing to
/// survive. Made by ``MemoryLog``.
package final class MemoryPartition: LogPartition {
    /// A written batch and its header, its base offset set.
    private struct StoredBatch: Sendable {
        let header: RecordBatchHeader
        let bytes: [UInt8]
    }

    private struct State: Sendable {
        /// In offset order, each starting where the one before ends.
        var batches: [StoredBatch] = []
        var endOffset: Int64 = 0
        var closed = false
    }

    package let name: String
    let options: LogOptions
    private let state = Mutex(State())

    init(name: String, options: LogOptions) {
        self.name = name
        self.options = options
    }

    /// Always 0: a memory partition drops nothing.
    package var startOffset: Int64 { 0 }

    package var endOffset: Int64 { state.withLock { $0.endOffset } }

    package func append(_ batch: RecordBatchBuilder) async throws -> Range<Int64> {
        let encoded = try batch.encode(compression: options.compression)
        return try appendWithoutWaiting(encoded).offsets
    }

    package func appendWithoutWaiting(_ batch: EncodedBatch) throws -> PendingAppend {
        guard batch.bytes.count <= options.maxBatchBytes else {
            throw LogError.batchTooLarge(bytes: batch.bytes.count, limit: options.maxBatchBytes)
        }
        return try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            let baseOffset = state.endOffset
            // The one copy: the caller reuses the encoded batch's memory for its next one.
            var bytes = batch.bytes
            bytes.setInteger(baseOffset, at: 0)
            let checked = bytes.withUnsafeBytes {
                BatchValidation.check($0, maxBatchBytes: options.maxBatchBytes, expectedBaseOffset: baseOffset)
            }
            let header: RecordBatchHeader
            switch checked {
            case .success(let valid): header = valid
            case .failure(let problem): throw LogError.malformedBatch(reason: problem.description)
            }
            state.batches.append(StoredBatch(header: header, bytes: bytes))
            state.endOffset = header.lastOffset + 1
            return PendingAppend(offsets: baseOffset..<state.endOffset, sequence: 0, committer: nil)
        }
    }

    /// Appends throw `LogError.closed` from now on; reads go on.
    func close() {
        state.withLock { $0.closed = true }
    }

    package func batches(from offset: Int64, maxBytes: Int) throws -> [RecordBatch] {
        let held = try batchesHolding(offset)
        var batches: [RecordBatch] = []
        var budget = maxBytes
        for index in held.indices where batches.isEmpty || budget > 0 {
            let batch = self.batch(at: index)
            // The budget is a cap: only the first batch may exceed it.
            guard batches.isEmpty || batch.bytes.count <= budget else { break }
            batches.append(batch)
            budget -= batch.bytes.count
        }
        return batches
    }

    package func records(from: Int64, to: Int64?, limit: Int) throws -> [LogRecord] {
        var records: [LogRecord] = []
        try forEachRecord(from: from, to: to) { record in
            records.append(record)
            return records.count < limit
        }
        return records
    }

    package func forEachRecord(from: Int64, to: Int64?, _ body: (LogRecord) throws -> Bool) throws {
        try forEachBatch(from: from, to: to) { batch, wanted in
            try batch.forEachRecord(in: wanted, maxDecompressedBytes: options.maxDecompressedBytes, body)
        }
    }

    package func forEachRecordInPlace(
        from: Int64, to: Int64?, cached: Bool, _ body: (BorrowedLogRecord) throws -> Bool
    ) throws {
        var buffer: [UInt8] = []
        try forEachBatch(from: from, to: to) { batch, wanted in
            try batch.forEachRecordInPlace(in: wanted, maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer, body)
        }
    }

    /// There is no batch cache: no record is known to pass, and none has a keeper.
    package func forEachRecordInPlace<Check: CachedRecordCheck>(
        from: Int64, to: Int64?, cachedWith check: Check.Type,
        _ body: (BorrowedLogRecord, _ passed: Bool, _ keeper: AnyObject?) throws -> Bool
    ) throws {
        try forEachRecordInPlace(from: from, to: to, cached: false) { try body($0, false, nil) }
    }

    /// The indices of the batches from the one holding `offset` to the last one now, and the
    /// offset after that one.
    ///
    /// - Throws: `LogError.offsetOutOfRange` outside `startOffset...endOffset`.
    private func batchesHolding(_ offset: Int64) throws -> (indices: Range<Int>, end: Int64) {
        try state.withLock { state in
            guard offset >= 0, offset <= state.endOffset else {
                throw LogError.offsetOutOfRange(offset: offset, start: 0, end: state.endOffset)
            }
            // The first batch whose last offset is at or after `offset`.
            var low = 0
            var high = state.batches.count
            while low < high {
                let middle = (low + high) / 2
                if state.batches[middle].header.lastOffset < offset { low = middle + 1 } else { high = middle }
            }
            return (low..<state.batches.count, state.endOffset)
        }
    }

    /// The batch at `index`, which stays where it is: batches are only ever appended. Taken one
    /// at a time under the lock, so that a read never copies the array an append then grows.
    private func batch(at index: Int) -> RecordBatch {
        state.withLock { state in
            let stored = state.batches[index]
            return RecordBatch(validated: stored.header, bytes: stored.bytes[...])
        }
    }

    /// Calls `body` with every batch holding offsets in `from..<to` and the offsets of it still
    /// wanted; `body` returns false to stop.
    private func forEachBatch(from: Int64, to: Int64?, _ body: (RecordBatch, Range<Int64>) throws -> Bool) throws {
        let held = try batchesHolding(from)
        let end = min(to ?? held.end, held.end)
        guard from < end else { return }
        for index in held.indices {
            let batch = self.batch(at: index)
            guard batch.header.baseOffset < end, try body(batch, from..<end) else { return }
        }
    }
}
