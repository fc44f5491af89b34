extension Partition {
    /// A consistent view of the segments for one read; appends continue meanwhile.
    private struct Snapshot {
        var segments: [SegmentState]
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
    public func batches(from offset: Int64, maxBytes: Int = 1 << 20) throws -> [RecordBatch] {
        let view = snapshot()
        guard offset >= view.start, offset <= view.end else {
            throw LogError.offsetOutOfRange(offset: offset, start: view.start, end: view.end)
        }
        guard var index = view.segments.lastIndex(where: { $0.baseOffset <= offset }) else { return [] }
        var batches: [RecordBatch] = []
        var budget = maxBytes
        var position = view.segments[index].indexer.offsetIndex.startPosition(for: offset - view.segments[index].baseOffset)
        var expected: Int64?  // the next base offset, once a batch was read
        var chunk: [UInt8] = []
        var chunkStart: Int64 = 0
        while index < view.segments.count, batches.isEmpty || budget > 0 {
            let segment = view.segments[index]
            guard position < segment.size else {
                index += 1
                position = 0
                chunk = []
                continue
            }
            let readSize = { (atLeast: Int) in
                Int(min(segment.size - position, Int64(max(atLeast, budget, 64 << 10))))
            }
            func corrupt(_ problem: BatchProblem) -> LogError {
                .corruptBatch(file: segment.path, position: position, offset: expected ?? offset, reason: problem.description)
            }
            var local = Int(position - chunkStart)
            if chunk.isEmpty || local < 0 || chunk.count - local < RecordBatchHeader.logOverhead {
                chunk = try segment.file.read(at: position, count: readSize(RecordBatchHeader.logOverhead))
                chunkStart = position
                local = 0
            }
            let available = chunk.count - local
            guard available >= RecordBatchHeader.logOverhead,
                let declared = chunk.withUnsafeBytes({ ByteReader($0).getInteger(at: local + 8, as: Int32.self) })
            else { throw corrupt(.incomplete(available: available, needed: RecordBatchHeader.logOverhead)) }
            let total = RecordBatchHeader.logOverhead + Int(declared)
            guard declared >= Int32(RecordBatchHeader.size - RecordBatchHeader.logOverhead), total <= options.maxBatchBytes,
                position + Int64(total) <= segment.size
            else { throw corrupt(.badLength(declared)) }
            if available < total {
                chunk = try segment.file.read(at: position, count: readSize(total))
                chunkStart = position
                local = 0
                guard chunk.count >= total else { throw corrupt(.incomplete(available: chunk.count, needed: total)) }
            }
            let checked = chunk.withUnsafeBytes {
                BatchValidation.check(
                    UnsafeRawBufferPointer(rebasing: $0[local..<(local + total)]), maxBatchBytes: options.maxBatchBytes,
                    expectedBaseOffset: expected)
            }
            let header: RecordBatchHeader
            switch checked {
            case .success(let valid): header = valid
            case .failure(let problem): throw corrupt(problem)
            }
            if header.lastOffset >= offset {
                // The budget is a cap: only the first batch may exceed it.
                guard batches.isEmpty || total <= budget else { break }
                batches.append(RecordBatch(validated: header, bytes: chunk[local..<(local + total)]))
                budget -= total
            }
            expected = header.lastOffset + 1
            position += Int64(total)
        }
        return batches
    }

    /// Calls `body` with every record in `from..<to` (to the end when `to` is nil), in offset
    /// order; `body` returns false to stop early.
    public func forEachRecord(
        from: Int64, to: Int64? = nil, _ body: (LogRecord) throws -> Bool
    ) throws {
        try forEachBatch(from: from, to: to) { batch, wanted in
            var keepGoing = true
            try batch.forEachRecord(maxDecompressedBytes: options.maxDecompressedBytes) { record in
                guard keepGoing, wanted.contains(record.offset) else { return }
                keepGoing = try body(record)
            }
            return keepGoing
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
    public func forEachRecordInPlace(
        from: Int64, to: Int64? = nil, cached: Bool = false, _ body: (BorrowedLogRecord) throws -> Bool
    ) throws {
        guard cached, batchCache.capacity > 0 else {
            try forEachUncachedRecord(from: from, to: to, body)
            return
        }
        try forEachCachedRecord(from: from, to: to, check: nil) { record, _, _ in try body(record) }
    }

    /// Reads as ``forEachRecordInPlace(from:to:cached:_:)`` does with `cached`, and tells `body`
    /// whether each record is known to pass `check`: true for every record of a batch the cache
    /// holds and that passed it whole, and for a record that the read just checked; false when
    /// it is not known (a batch too many for the cache, or one that holds a record that failed),
    /// and the caller checks the record itself.
    ///
    /// `keeper`, when not nil, keeps the record's bytes where they are for as long as it is held:
    /// the cached batch. A reader that needs a record's bytes after the call holds the keeper
    /// instead of copying them; when it is nil, the bytes last only during the call.
    ///
    /// The first read of a batch the cache keeps runs `check` over all of its records, those
    /// outside the range too, and the cache keeps the verdict with the batch: later reads of it
    /// run nothing (see ``CachedRecordCheck``).
    public func forEachRecordInPlace<Check: CachedRecordCheck>(
        from: Int64, to: Int64? = nil, cachedWith check: Check.Type,
        _ body: (BorrowedLogRecord, _ passed: Bool, _ keeper: AnyObject?) throws -> Bool
    ) throws {
        guard batchCache.capacity > 0 else {
            try forEachUncachedRecord(from: from, to: to) { try body($0, false, nil) }
            return
        }
        try forEachCachedRecord(from: from, to: to, check: (ObjectIdentifier(check), check.passes), body)
    }

    private func forEachUncachedRecord(from: Int64, to: Int64?, _ body: (BorrowedLogRecord) throws -> Bool) throws {
        var buffer: [UInt8] = []
        try forEachBatch(from: from, to: to) { batch, wanted in
            var keepGoing = true
            try batch.forEachRecordInPlace(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) { record in
                guard keepGoing, wanted.contains(record.offset) else { return }
                keepGoing = try body(record)
            }
            return keepGoing
        }
    }

    /// The records of ``forEachCachedBatch(from:to:_:)``'s batches, with whether each is known to
    /// pass `check`, running it over each kept batch whose verdict is not known yet.
    private func forEachCachedRecord(
        from: Int64, to: Int64?, check: (id: ObjectIdentifier, passes: (BorrowedLogRecord) -> Bool)?,
        _ body: (BorrowedLogRecord, Bool, AnyObject?) throws -> Bool
    ) throws {
        try forEachCachedBatch(from: from, to: to) { header, records, wanted, kept in
            let known = check.flatMap { kept?.verdict(of: $0.id) }
            // Only a kept batch is checked whole: the verdict of one read once is not kept.
            let checking = kept == nil || known != nil ? nil : check
            var keepGoing = true
            var allPassed = true
            // Every record is visited, so a read that stops early still checks the batch to its
            // end: the next page of changes starts there.
            func visit(_ record: BorrowedLogRecord) throws {
                var passed = known ?? false
                if let checking {
                    passed = checking.passes(record)
                    allPassed = allPassed && passed
                }
                guard keepGoing, wanted.contains(record.offset) else { return }
                keepGoing = try body(record, passed, kept)
            }
            if let kept { try kept.forEachRecord(visit) } else { try RecordDecoder.walk(records, header: header, visit) }
            if let checking, let kept { kept.keep(verdict: allPassed, of: checking.id) }
            return keepGoing
        }
    }

    /// ``forEachBatch(from:to:_:)`` through the log's cache: calls `body` with each batch's
    /// header and decompressed records, from the cache when it holds them, else read and kept,
    /// up to half the cache per call: a long scan neither copies every batch nor evicts all
    /// the rest.
    private func forEachCachedBatch(
        from: Int64, to: Int64?,
        _ body: (RecordBatchHeader, UnsafeRawBufferPointer, Range<Int64>, BatchCache.Batch?) throws -> Bool
    ) throws {
        let (start, last) = state.withLock { ($0.segments.first?.baseOffset ?? 0, $0.segments.last?.nextOffset ?? 0) }
        guard from >= start, from <= last else { throw LogError.offsetOutOfRange(offset: from, start: start, end: last) }
        var next = from
        let end = min(to ?? last, last)
        var buffer: [UInt8] = []
        var keptBytes = 0
        var missed = false
        while next < end {
            if let hit = batchCache.batch(BatchCache.Key(partition: cacheNumber, baseOffset: next)) {
                guard try body(hit.header, hit.records, next..<end, hit) else { return }
                next = hit.header.lastOffset + 1
                continue
            }
            // The first miss reads one batch: a read that starts inside a batch (the next page
            // of changes) misses at `next` and finds the batch by its base offset, then reads the
            // batches after it from the cache. Once a batch is really missing, the next ones
            // likely are too, and are read 4 MiB at a time.
            let batches = try batches(from: next, maxBytes: missed ? 4 << 20 : 0)
            missed = true
            guard !batches.isEmpty else { return }
            for batch in batches {
                let key = BatchCache.Key(partition: cacheNumber, baseOffset: batch.header.baseOffset)
                let wanted = next..<end
                if let hit = batchCache.batch(key) {
                    guard try body(hit.header, hit.records, wanted, hit) else { return }
                } else if keptBytes < batchCache.capacity / 2 {
                    // Decompressed into the scan's buffer, then copied at its exact size: a
                    // buffer of its own would hold the room left after the records, and touch
                    // fresh pages for all of it.
                    let fresh = try batch.withRecordsSection(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) {
                        try? BatchCache.Batch(header: batch.header, records: $0)
                    }
                    guard let fresh else {
                        // Malformed: not kept, and read as it is, to fail where it breaks.
                        let more = try batch.withRecordsSection(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) {
                            try body(batch.header, $0, wanted, nil)
                        }
                        guard more else { return }
                        next = batch.header.lastOffset + 1
                        continue
                    }
                    // Another read may have kept the same batch meanwhile: share its verdicts.
                    let kept = batchCache.insert(fresh, at: key)
                    keptBytes += fresh.size
                    guard try body(batch.header, kept.records, wanted, kept) else { return }
                } else {
                    let more = try batch.withRecordsSection(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) {
                        try body(batch.header, $0, wanted, nil)
                    }
                    guard more else { return }
                }
                next = batch.header.lastOffset + 1
                if next >= end { return }
            }
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
            let batches = try batches(from: next, maxBytes: 4 << 20)
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
        var records: [LogRecord] = []
        try forEachRecord(from: from, to: to) { record in
            records.append(record)
            return records.count < limit
        }
        return records
    }

    /// The first offset whose record has a timestamp at or after `timestamp`, or `endOffset`
    /// when none has (Kafka's ListOffsets by timestamp).
    public func offset(forTimestamp timestamp: Int64) throws -> Int64 {
        let view = snapshot()
        guard let segmentIndex = view.segments.firstIndex(where: { $0.indexer.maxTimestamp >= timestamp }) else {
            return view.end
        }
        let segment = view.segments[segmentIndex]
        var from = segment.baseOffset
        if let entry = segment.indexer.timeIndex.lastEntry(before: timestamp) {
            from = segment.baseOffset + Int64(entry.relativeOffset) + 1
        }
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
