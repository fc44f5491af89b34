import StorageKit

// Truncation: the batches from an offset on removed, so that appends continue there.
extension LogSegment {
    /// Removes the batches holding offsets at or after `offset` (Kafka's `truncateTo`); returns
    /// the bytes removed. Batches are atomic: the segment then ends where the batch holding
    /// `offset` started, and the next append continues at that batch's base offset — `offset`
    /// itself when a batch starts there. Nothing changes when `offset` is at or past the end.
    ///
    /// The indexes are rebuilt from the batches kept, exactly as recovery would build them, and
    /// index files written at a seal are removed: they describe the segment as it was. The cut is
    /// not synced; `flush()` makes it durable.
    ///
    /// - Throws: `LogError.corruptBatch` when the file no longer holds the segment's batches.
    @discardableResult
    mutating func truncate(to offset: Int64, maxBatchBytes: Int) throws -> Int64 {
        guard offset < nextOffset else { return 0 }
        var kept = SegmentIndexer(baseOffset: baseOffset, intervalBytes: indexer.intervalBytes)
        var keptFirstTimestamp: Int64?
        var cut: (position: Int64, nextOffset: Int64)?
        let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: maxBatchBytes)
        let outcome = try scanner.scan(from: 0, expectedOffset: baseOffset) { header, position, _ in
            guard cut == nil else { return }
            if header.lastOffset >= offset {
                cut = (position, header.baseOffset)
                return
            }
            kept.didAppend(header, at: position)
            if keptFirstTimestamp == nil { keptFirstTimestamp = header.firstTimestamp }
        }
        guard let cut else {
            let (position, problem) = outcome.problem ?? (outcome.validEnd, .incomplete(available: 0, needed: RecordBatchHeader.size))
            throw LogError.corruptBatch(file: path, position: position, offset: outcome.nextOffset, reason: problem.description)
        }
        let removed = max(size, allocated) - cut.position
        try file.truncate(to: cut.position)
        size = cut.position
        allocated = cut.position
        nextOffset = cut.nextOffset
        firstTimestamp = keptFirstTimestamp
        indexer = kept
        indexFilesCurrent = false
        try FileSystem.remove(siblingPath(SegmentName.indexSuffix))
        try FileSystem.remove(siblingPath(SegmentName.timeIndexSuffix))
        checkInvariants()
        return removed
    }
}
