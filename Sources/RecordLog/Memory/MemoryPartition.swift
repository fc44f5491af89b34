import StorageKit

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
        /// What compaction did: the start, the expiry offset and the drop sequence.
        var startOffset: Int64 = 0
        var expiryOffset: Int64 = 0
        var dropSequence: Int64 = 0
    }

    package let name: String
    let options: LogOptions
    private let state = LockedValue(State())

    init(name: String, options: LogOptions) {
        self.name = name
        self.options = options
    }

    /// 0 until a compaction removes the first batches.
    package var startOffset: Int64 { state.withLock { $0.startOffset } }

    package var expiryOffset: Int64 { state.withLock { $0.expiryOffset } }

    /// Always even: a compaction here drops its deletes under the partition's lock, all at once,
    /// and moves it by 2.
    package var dropSequence: Int64 { state.withLock { $0.dropSequence } }

    /// Always 0: memory is compacted only when asked (``compact(_:)``), never in the background.
    package var dirtyRatio: Double { 0 }

    /// None: memory is never re-batched in the background either.
    package var smallBatches: SmallBatches { SmallBatches() }

    /// Compacts every batch by the rules of ``Partition/compact(_:)``: each batch keeps the
    /// records that are their key's latest event (tombstones until their retention ends), with
    /// its offsets; a batch left empty goes (memory needs no offsets' span), and the start
    /// advances past the batches removed at the beginning.
    package func compact(_ compaction: CompactionOptions) throws -> CompactionReport {
        try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            var report = CompactionReport(partition: name)
            report.bytesBefore = Int64(state.batches.reduce(0) { $0 + $1.bytes.count })
            report.segmentsBefore = 1
            report.segmentsAfter = 1
            var map = OffsetMap(keptHeader: compaction.keptHeader)
            var buffer: [UInt8] = []
            for stored in state.batches {
                map.startBatch()
                try RecordBatch(validated: stored.header, bytes: stored.bytes[...]).forEachRecordInPlace(
                    maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer
                ) { record in
                    report.recordsRead += 1
                    _ = map.note(record)
                }
            }
            let cutoff = compaction.tombstoneCutoff
            let expired = map.expiredTombstones(cutoff: cutoff)
            report.tombstonesDropped = expired.count
            state.expiryOffset = max(state.expiryOffset, (expired.max() ?? -1) + 1)
            if !expired.isEmpty { state.dropSequence += 2 }
            var kept: [StoredBatch] = []
            for stored in state.batches {
                var builder = RecordBatchBuilder()
                var removed = 0
                try RecordBatch(validated: stored.header, bytes: stored.bytes[...]).forEachRecordInPlace(
                    maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer
                ) { record in
                    if map.verdict(on: record, tombstoneCutoff: cutoff) == .keep {
                        builder.appendCopy(of: record, offsetDelta: Int32(truncatingIfNeeded: record.offset - stored.header.baseOffset))
                    } else {
                        removed += 1
                    }
                }
                report.recordsRemoved += removed
                guard removed > 0 else {
                    kept.append(stored)
                    continue
                }
                guard !builder.isEmpty else { continue }
                var bytes = try builder.encode(compression: options.compression, lastOffsetDelta: stored.header.lastOffsetDelta).bytes
                bytes.setInteger(stored.header.baseOffset, at: 0)
                guard let header = bytes.withUnsafeBytes({ RecordBatchHeader(parsing: $0) }) else {
                    throw LogError.malformedBatch(reason: "a cleaned batch has no header")
                }
                kept.append(StoredBatch(header: header, bytes: bytes))
            }
            state.batches = kept
            state.startOffset = kept.first?.header.baseOffset ?? state.endOffset
            report.bytesAfter = Int64(kept.reduce(0) { $0 + $1.bytes.count })
            report.logStartOffset = state.startOffset
            report.expiryOffset = state.expiryOffset
            return report
        }
    }

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
        _ = try checkedEnd(offset)
        var next = offset
        var batches: [RecordBatch] = []
        var budget = maxBytes
        while batches.isEmpty || budget > 0, let batch = batch(holding: next) {
            // The budget is a cap: only the first batch may exceed it.
            guard batches.isEmpty || batch.bytes.count <= budget else { break }
            batches.append(batch)
            budget -= batch.bytes.count
            next = batch.header.lastOffset + 1
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

    /// The end offset, once `offset` is checked to be in the partition.
    ///
    /// - Throws: `LogError.offsetOutOfRange` outside `startOffset...endOffset`.
    private func checkedEnd(_ offset: Int64) throws -> Int64 {
        try state.withLock { state in
            guard offset >= state.startOffset, offset <= state.endOffset else {
                throw LogError.offsetOutOfRange(offset: offset, start: state.startOffset, end: state.endOffset)
            }
            return state.endOffset
        }
    }

    /// The first batch whose last offset is at or after `offset`, if any, found under the lock
    /// one batch at a time: a read never copies the array an append then grows, and follows it
    /// by offset when a compaction replaced it.
    private func batch(holding offset: Int64) -> RecordBatch? {
        state.withLock { state in
            var low = 0
            var high = state.batches.count
            while low < high {
                let middle = (low + high) / 2
                if state.batches[middle].header.lastOffset < offset { low = middle + 1 } else { high = middle }
            }
            guard low < state.batches.count else { return nil }
            let stored = state.batches[low]
            return RecordBatch(validated: stored.header, bytes: stored.bytes[...])
        }
    }

    /// Calls `body` with every batch holding offsets in `from..<to` and the offsets of it still
    /// wanted; `body` returns false to stop.
    private func forEachBatch(from: Int64, to: Int64?, _ body: (RecordBatch, Range<Int64>) throws -> Bool) throws {
        let last = try checkedEnd(from)
        let end = min(to ?? last, last)
        var next = from
        while next < end, let batch = batch(holding: next) {
            guard batch.header.baseOffset < end, try body(batch, from..<end) else { return }
            next = batch.header.lastOffset + 1
        }
    }
}
