// Reads through the log's cache of decompressed batches (`BatchCache`): the batches a read keeps, the
// positions and check verdicts they hold.
extension Partition {
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
    package func forEachRecordInPlace<Check: CachedRecordCheck>(
        from: Int64, to: Int64? = nil, cachedWith check: Check.Type,
        _ body: (BorrowedLogRecord, _ passed: Bool, _ keeper: AnyObject?) throws -> Bool
    ) throws {
        return try LogError.translating {
            guard batchCache.capacity > 0 else {
                try forEachUncachedRecord(from: from, to: to) { try body($0, false, nil) }
                return
            }
            try forEachCachedRecord(from: from, to: to, check: (ObjectIdentifier(check), check.passes), body)
        }
    }

    /// The records of ``forEachCachedBatch(from:to:_:)``'s batches, with whether each is known to
    /// pass `check`, running it over each kept batch whose verdict is not known yet.
    func forEachCachedRecord(
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
        let (start, last, cacheNumber) = state.withLock {
            ($0.segments.first?.baseOffset ?? 0, $0.segments.last?.nextOffset ?? 0, $0.cacheNumber)
        }
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
            // From the log start, when a compaction removed the segments the read was in.
            let batches = try batches(from: max(next, startOffset), maxBytes: missed ? 4 << 20 : 0)
            missed = true
            guard !batches.isEmpty else { return }
            for batch in batches {
                let key = BatchCache.Key(partition: cacheNumber, baseOffset: batch.header.baseOffset)
                let wanted = next..<end
                if let hit = batchCache.batch(key) {
                    guard try body(hit.header, hit.records, wanted, hit) else { return }
                } else if keptBytes < batchCache.capacity / 2,
                    // Decompressed into the scan's buffer, then copied at its exact size: a
                    // buffer of its own would hold the room left after the records, and touch
                    // fresh pages for all of it. Nil when malformed: not kept (below).
                    let fresh = try batch.withRecordsSection(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer, {
                        try? BatchCache.Batch(header: batch.header, records: $0)
                    })
                {
                    // Another read may have kept the same batch meanwhile: share its verdicts.
                    let kept = batchCache.insert(fresh, at: key)
                    keptBytes += fresh.size
                    guard try body(batch.header, kept.records, wanted, kept) else { return }
                } else {
                    // Not kept (past this read's half of the cache, or malformed: read as it is, to
                    // fail where it breaks).
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
}
