import Logging
import StorageKit

// Compaction (Kafka's `Cleaner`): the latest event of each key kept, the rest removed, offsets
// unchanged; cleaned segments written aside and swapped in (FORMAT.md §13).
extension Partition {
    /// Compacts the partition's sealed segments by key, as Kafka's log cleaner does: each key's
    /// latest event is kept and every earlier one removed; a tombstone that is its key's latest
    /// event is kept for ``CompactionOptions/tombstoneRetentionMilliseconds``, then dropped (and
    /// ``expiryOffset`` moves past it); a record without a key is always kept. Offsets never
    /// change: a read from a removed offset continues at the next record. Segments left empty at
    /// the start of the log are removed and ``startOffset`` advances; consecutive small segments
    /// are merged. The active segment is rolled first (``CompactionOptions/rollingActiveSegment``)
    /// so that everything appended before the call is compacted; appends go on meanwhile.
    ///
    /// Blocking: it reads and writes the partition's segments on the caller's thread, for as long
    /// as that takes. Appends and reads are held up only while a cleaned segment replaces the old
    /// ones in the partition's list (a swap of array elements under its lock). Crash-safe at
    /// every step: each cleaned segment is written aside, synced, and renamed into place; the
    /// next open finishes or rolls back a swap a crash interrupted (FORMAT.md §13.1).
    ///
    /// ```swift
    /// let report = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
    /// print(report.bytesReclaimed, partition.startOffset, partition.expiryOffset)
    /// ```
    ///
    /// - Throws: `LogError.readOnly`; `LogError.closed` when the log closes meanwhile (the
    ///   partition is left consistent, and the next open finishes any swap under way);
    ///   `LogError.corruptBatch` when a segment no longer holds what was written.
    @discardableResult
    public func compact(_ compaction: CompactionOptions = CompactionOptions()) throws -> CompactionReport {
        try LogError.translating {
            guard !options.readOnly else { throw LogError.readOnly }
            return try compacting.withLock { _ in try runCompaction(compaction) }
        }
    }

    /// How much of the sealed segments was appended since the last compaction (Kafka's dirty
    /// ratio): bytes of the segments at or after the cleaned range, over all sealed bytes; 0
    /// when there are none. What an automatic compaction compares with its threshold.
    public var dirtyRatio: Double {
        // Asked after every commit (`CompactionPolicy`): a loop over the segments, no allocation.
        state.withLock { state in
            var total: Int64 = 0
            var dirty: Int64 = 0
            for segment in state.segments.dropLast() {
                total += segment.size
                if segment.baseOffset >= state.cleaner.cleanedThrough { dirty += segment.size }
            }
            return total > 0 ? Double(dirty) / Double(total) : 0
        }
    }

    /// What was appended in small batches since the open or the last compaction that rolled the
    /// active segment, beside the partition's size: a loop over the segments, no allocation.
    package var smallBatches: SmallBatches {
        state.withLock { state in
            var total: Int64 = 0
            for segment in state.segments { total += segment.size }
            return SmallBatches(bytes: state.smallBatchBytes, totalBytes: total)
        }
    }

    /// Takes on the expiry offset and drop sequence of the log this partition copies (FORMAT.md
    /// §14.5: a mirror built from rows a compaction cleaned holds what those rows hold, so it
    /// answers change tokens as they say). Neither ever decreases; the drop sequence must be even.
    ///
    /// - Throws: `LogError.readOnly`; `invalidArguments`-like `malformedBatch` for an odd or
    ///   negative drop sequence; the checkpoint's write errors.
    package func adoptCleanerState(expiryOffset: Int64, dropSequence: Int64) throws {
        try LogError.translating {
            guard !options.readOnly else { throw LogError.readOnly }
            guard dropSequence >= 0, dropSequence & 1 == 0, expiryOffset >= 0 else {
                throw LogError.malformedBatch(reason: "a drop sequence must be even and not negative, not \(dropSequence)")
            }
            try compacting.withLock { _ in
                let before = state.withLock { $0.cleaner }
                var checkpoint = before
                checkpoint.expiryOffset = max(before.expiryOffset, expiryOffset)
                checkpoint.dropSequence = max(before.dropSequence, dropSequence)
                guard checkpoint != before else { return }
                try checkpoint.write(directory: directory)
                state.withLock { $0.cleaner = checkpoint }
            }
        }
    }

    /// The cleaner's state: where the log starts, how far it was cleaned, the expiry offset.
    package var cleanerState: (logStartOffset: Int64, cleanedThrough: Int64, expiryOffset: Int64) {
        state.withLock { ($0.segments.first?.baseOffset ?? $0.cleaner.logStartOffset, $0.cleaner.cleanedThrough, $0.cleaner.expiryOffset) }
    }

    private func runCompaction(_ compaction: CompactionOptions) throws -> CompactionReport {
        try checkNotClosing()
        if compaction.rollingActiveSegment {
            let rolled = try state.withLock { state -> Bool in
                guard !state.closed else { throw LogError.closed }
                guard let active = state.segments.last, active.size > 0 else { return false }
                try roll(&state)
                // Everything appended so far is now in sealed segments, which this compaction
                // re-batches.
                state.smallBatchBytes = 0
                return true
            }
            if rolled { onRoll() }
        }
        let (sealed, activeBase, segmentCount, before) = state.withLock {
            (Array($0.segments.dropLast()), $0.segments.last?.baseOffset ?? 0, $0.segments.count, $0.cleaner)
        }
        var report = CompactionReport(partition: name)
        report.segmentsBefore = segmentCount
        report.bytesBefore = sealed.reduce(0) { $0 + $1.size }
        let cutoff = compaction.tombstoneCutoff
        let plan = try CleanerPlan(
            segments: sealed, tombstoneCutoff: cutoff, keptHeader: compaction.keptHeader, options: options, stillWanted: checkNotClosing)
        report.recordsRead = plan.recordsRead
        report.recordsRemoved = plan.recordsRemoved
        report.tombstonesDropped = plan.tombstonesDropped

        // The plan first: the new log start and expiry offset are on disk before any segment
        // changes, so that no crash leaves a dropped delete unaccounted for.
        var checkpoint = before
        checkpoint.logStartOffset = plan.logStartOffset ?? activeBase
        checkpoint.expiryOffset = max(before.expiryOffset, plan.expiryOffset)
        // Odd until the last swap: a change token read meanwhile is not stamped (FORMAT.md §11.1).
        if plan.tombstonesDropped > 0 { checkpoint.beginDropping() }
        if checkpoint != before { try checkpoint.write(directory: directory) }
        state.withLock { $0.cleaner = checkpoint }
        CompactionHook.reached(.planned)

        if plan.leadingEmpty > 0 {
            try checkNotClosing()
            for segment in sealed.prefix(plan.leadingEmpty) { try removeFiles(of: segment, keepingLog: false) }
            try FileSystem.syncDirectory(directory)
            state.withLock { state in
                state.segments.removeFirst(plan.leadingEmpty)
                state.cacheNumber = BatchCache.partitionNumber()
            }
            logger.info("removed emptied segments", metadata: ["partition": "\(name)", "count": "\(plan.leadingEmpty)"])
        }
        CompactionHook.reached(.leadingSegmentsRemoved)

        for group in plan.groups {
            try checkNotClosing()
            try clean(Array(sealed[group]), map: plan.map, tombstoneCutoff: cutoff)
        }
        checkpoint.cleanedThrough = activeBase
        // Even again, also after an earlier compaction that stopped with it odd: every swap this
        // process will make is made.
        checkpoint.endDropping()
        try checkpoint.write(directory: directory)
        let after = state.withLock { state in
            state.cleaner = checkpoint
            return state.segments
        }
        CompactionHook.reached(.finished)
        report.segmentsAfter = after.count
        report.bytesAfter = after.dropLast().reduce(0) { $0 + $1.size }
        report.logStartOffset = after.first?.baseOffset ?? checkpoint.logStartOffset
        report.expiryOffset = checkpoint.expiryOffset
        logger.info(
            "compacted partition",
            metadata: [
                "partition": "\(name)", "bytesBefore": "\(report.bytesBefore)", "bytesAfter": "\(report.bytesAfter)",
                "recordsRemoved": "\(report.recordsRemoved)", "expiryOffset": "\(report.expiryOffset)",
            ])
        return report
    }

    /// Cleans one group of consecutive sealed segments into one segment at the first one's base
    /// offset, and swaps it in: `.cleaned` written and synced, renamed to `.swap`, the old files
    /// removed, the swap renamed over the first segment's `.log`.
    private func clean(_ group: [LogSegment], map: OffsetMap, tombstoneCutoff: Int64) throws {
        guard let first = group.first, let last = group.last else { return }
        let cleanedPath = first.siblingPath(SegmentName.cleanedSuffix)
        let swapPath = first.siblingPath(SegmentName.swapSuffix)
        try FileSystem.remove(cleanedPath)
        var writer = CleanedSegmentWriter(
            file: try OpenFile(path: cleanedPath, writable: true, create: true, exclusive: true), baseOffset: first.baseOffset,
            indexIntervalBytes: options.indexIntervalBytes, compression: options.compression)
        do {
            var buffer: [UInt8] = []
            for segment in group {
                try segment.forEachBatch(maxBatchBytes: options.maxBatchBytes) { batch in
                    try checkNotClosing()
                    try batch.forEachRecordInPlace(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) { record in
                        if map.verdict(on: record, tombstoneCutoff: tombstoneCutoff) == .keep { writer.keep(record) }
                    }
                    try writer.endInputBatch(lastOffset: batch.header.lastOffset)
                }
            }
            try writer.finish(endOffset: last.nextOffset)
        } catch {
            try? FileSystem.remove(cleanedPath)
            throw error
        }
        CompactionHook.reached(.cleanedWritten)
        try checkNotClosing()
        try FileSystem.rename(cleanedPath, swapPath)
        try FileSystem.syncDirectory(directory)
        CompactionHook.reached(.swapReady)
        // From here on the swap is finished, here or by the next open.
        for segment in group { try removeFiles(of: segment, keepingLog: segment.baseOffset == first.baseOffset) }
        try FileSystem.syncDirectory(directory)
        CompactionHook.reached(.oldSegmentsRemoved)
        try FileSystem.rename(swapPath, first.path)
        try FileSystem.syncDirectory(directory)
        CompactionHook.reached(.swapInstalled)
        let file = try OpenFile(path: first.path, writable: true)
        var cleaned = LogSegment(
            baseOffset: first.baseOffset, file: file, directory: directory, size: writer.size, allocated: writer.size,
            nextOffset: last.nextOffset, firstTimestamp: writer.firstTimestamp, indexer: writer.indexer)
        try cleaned.seal(writingIndexFiles: true)
        state.withLock { state in
            guard let start = state.segments.firstIndex(where: { $0.baseOffset == first.baseOffset }) else { return }
            state.segments.replaceSubrange(start..<(start + group.count), with: [cleaned])
            state.cacheNumber = BatchCache.partitionNumber()
        }
    }

    /// Removes a segment's index files, and its `.log` unless `keepingLog`.
    private func removeFiles(of segment: LogSegment, keepingLog: Bool) throws {
        try FileSystem.remove(segment.siblingPath(SegmentName.indexSuffix))
        try FileSystem.remove(segment.siblingPath(SegmentName.timeIndexSuffix))
        if !keepingLog { try FileSystem.remove(segment.path) }
    }

    private func checkNotClosing() throws {
        if closing.load(ordering: .acquiring) { throw LogError.closed }
    }
}
