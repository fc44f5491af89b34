import StorageKit
extension Partition {
    /// A consistent view of the segments for one read; appends continue meanwhile.
    private struct Snapshot {
        var segments: [LogSegment]
        var start: Int64 { segments.first?.baseOffset ?? 0 }
        var end: Int64 { segments.last?.nextOffset ?? 0 }
    }

    private func snapshot() -> Snapshot {
        Snapshot(segments: state.withLock { $0.segments })
    }

    /// Whole batches holding the offsets from `offset` on, about `maxBytes` of them (always at
    /// least one batch when any offset at or after `offset` exists). Every batch is validated
    /// again (CRC, offsets) as it is read.
    ///
    /// - Throws: `LogError.offsetOutOfRange` outside `startOffset...endOffset`;
    ///   `LogError.corruptBatch` when the disk no longer holds what was written.
    package func batches(from offset: Int64, maxBytes: Int = 1 << 20) throws -> [RecordBatch] {
        return try LogError.translating {
            let view = snapshot()
            guard offset >= view.start, offset <= view.end else {
                throw LogError.offsetOutOfRange(offset: offset, start: view.start, end: view.end)
            }
            guard let first = view.segments.lastIndex(where: { $0.baseOffset <= offset }) else { return [] }
            var fetch = LogSegment.Fetch(offset: offset, maxBytes: maxBytes)
            for segment in view.segments[first...] where fetch.wantsMore {
                try segment.read(into: &fetch, maxBatchBytes: options.maxBatchBytes)
            }
            return fetch.batches
        }
    }

    /// Calls `body` with every record in `from..<to` (to the end when `to` is nil), in offset
    /// order; `body` returns false to stop early.
    public func forEachRecord(
        from: Int64, to: Int64? = nil, _ body: (LogRecord) throws -> Bool
    ) throws {
        return try LogError.translating {
            try forEachBatch(from: from, to: to) { batch, wanted in
                try batch.forEachRecord(in: wanted, maxDecompressedBytes: options.maxDecompressedBytes, body)
            }
        }
    }

    /// Calls `body` with every record in `from..<to` (to the end when `to` is nil) read in place,
    /// in offset order; `body` returns false to stop early. Nothing is allocated per record, and
    /// one decompression buffer serves every batch: a borrowed record is valid only during its
    /// call (see ``BorrowedLogRecord``). Checks exactly what ``forEachRecord(from:to:_:)`` checks.
    ///
    /// With `cached`, for reads that are likely to come again (a change fetch reads the log's
    /// tail): batches the log's cache holds (``LogOptions/batchCacheBytes``) are read from it,
    /// with no `pread`, CRC or decompression, and the batches read from the files are kept
    /// there, up to half the cache per call. The records are the same either way.
    package func forEachRecordInPlace(
        from: Int64, to: Int64? = nil, cached: Bool = false, _ body: (BorrowedLogRecord) throws -> Bool
    ) throws {
        return try LogError.translating {
            guard cached, batchCache.capacity > 0 else {
                try forEachUncachedRecord(from: from, to: to, body)
                return
            }
            try forEachCachedRecord(from: from, to: to, check: nil) { record, _, _ in try body(record) }
        }
    }

    func forEachUncachedRecord(from: Int64, to: Int64?, _ body: (BorrowedLogRecord) throws -> Bool) throws {
        var buffer: [UInt8] = []
        try forEachBatch(from: from, to: to) { batch, wanted in
            try batch.forEachRecordInPlace(in: wanted, maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer, body)
        }
    }

    /// Calls `body` with every batch holding offsets in `from..<to` and the offsets of it still
    /// wanted; `body` returns false to stop.
    private func forEachBatch(from: Int64, to: Int64?, _ body: (RecordBatch, Range<Int64>) throws -> Bool) throws {
        let (start, last) = state.withLock { ($0.segments.first?.baseOffset ?? 0, $0.segments.last?.nextOffset ?? 0) }
        guard from >= start, from <= last else { throw LogError.offsetOutOfRange(offset: from, start: start, end: last) }
        var next = from
        let end = min(to ?? last, last)
        while next < end {
            // A compaction may have removed the segments the read was in since it started:
            // their records were all replaced later in the log, where the read goes on.
            let batches = try batches(from: max(next, startOffset), maxBytes: 4 << 20)
            guard !batches.isEmpty else { return }
            for batch in batches {
                guard try body(batch, next..<end) else { return }
                next = batch.header.lastOffset + 1
                if next >= end { return }
            }
        }
    }

    /// The records in `from..<to` (to the end when `to` is nil), at most `limit` of them.
    public func records(from: Int64, to: Int64? = nil, limit: Int = .max) throws -> [LogRecord] {
        return try LogError.translating {
            var records: [LogRecord] = []
            try forEachRecord(from: from, to: to) { record in
                records.append(record)
                return records.count < limit
            }
            return records
        }
    }

    /// The first offset whose record has a timestamp at or after `timestamp`, or `endOffset`
    /// when none has (Kafka's ListOffsets by timestamp).
    public func offset(forTimestamp timestamp: Int64) throws -> Int64 {
        return try LogError.translating {
            let view = snapshot()
            guard let segment = view.segments.first(where: { $0.maxTimestamp >= timestamp }) else { return view.end }
            let from = segment.searchStart(forTimestamp: timestamp)
            var found: Int64 = view.end
            try forEachRecord(from: from, to: view.end) { record in
                if record.timestamp >= timestamp {
                    found = record.offset
                    return false
                }
                return true
            }
            return found
        }
    }
}
