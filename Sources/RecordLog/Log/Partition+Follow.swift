import StorageKit

// Several processes: the writer publishes how far each partition is durable (its durable-end
// mark, FORMAT.md §6.1); a reader in another process reads up to there and catches up later.
extension Partition {
    /// A writer's open: makes the partition's recovered end durable, when its mark does not
    /// already say so, and publishes it, so that readers see everything recovery kept (and a
    /// new partition starts with a mark).
    func publishOpenedEnd() throws {
        guard let durableEnd else { return }
        try state.withLock { state in
            guard let active = state.segments.last, durableEnd.published != active.end else { return }
            try active.file.syncData()
            durableEnd.publish(active.end)
            try durableEnd.sync()
        }
    }

    /// Whether the writer's durable-end mark lies beyond this read-only partition's end — or
    /// the partition has no usable mark, when only `catchUp()` can tell. One 1 KiB read.
    func hasNewDurableBatches() -> Bool {
        guard options.readOnly else { return false }
        guard let mark = DurableEnd.read(partitionDirectory: directory) else { return true }
        return mark.nextOffset > endOffset
    }

    /// A read-only partition's catch-up with its writer in another process: takes in the whole
    /// batches up to the writer's current durable-end mark — across segment rolls — and nothing
    /// after it. Without a usable mark it takes every whole batch, as a read-only open does.
    /// Returns whether the partition grew.
    ///
    /// A writer's compaction may swap segments under the reader meanwhile (FORMAT.md §13.1). The
    /// segments the reader holds stay readable and right — their files are open, and a swap
    /// never changes a file in place, it renames another over its name — but the files after
    /// them may no longer continue them (a cleaned segment now starts below the reader's end,
    /// or a file listed a moment ago is gone). Then the reader opens the partition again as it
    /// now stands, up to the mark, as a read-only open does (``PartitionLoader/loadBesideWriter``).
    /// Either way it reads the cleaner checkpoint after the segments, so ``expiryOffset`` covers
    /// every delete the segments it now holds have lost, and before them, so that its
    /// ``dropSequence`` is settled (even) only when no compaction dropped deletes while it read
    /// (FORMAT.md §11.1). A reader whose segments may mix segments from before and after such a
    /// compaction opens the partition again once the compaction is over; one whose segments all
    /// predate it keeps answering from them (they still hold the deletes) until it next finds
    /// new batches, and then opens the partition again before it reads them.
    ///
    /// - Throws: `LogError.corruptBatch` for damage below the mark.
    func catchUp() throws -> Bool {
        guard options.readOnly else { return false }
        // The mark first: whatever the files hold by the time they are read, at least that much.
        let mark = DurableEnd.read(partitionDirectory: directory)
        // The common case, nothing new: one read of the mark, no listing — and of the cleaner
        // checkpoint while what the reader holds is unsettled.
        if let mark, mark.nextOffset <= endOffset {
            guard state.withLock({ $0.cleaner.isDropping }), !(try CleanerCheckpoint.read(directory: directory).isDropping) else { return false }
            return try reopenBesideWriter()
        }
        do {
            return try follow(mark)
        } catch let error where PartitionLoader.mayBeTheWritersMove(error) {
            logger.debug("segments moved under the reader (a compaction); opening the partition again", metadata: ["partition": "\(directory)"])
            return try reopenBesideWriter()
        }
    }

    /// Opens the partition's files again, as they stand now, in place of the segments held.
    private func reopenBesideWriter() throws -> Bool {
        let before = endOffset
        var report = RecoveryReport()
        let loaded = try PartitionLoader(directory: directory, options: options, logger: logger)
            .loadBesideWriter(recoveryPoint: recoveryPoint, report: &report)
        return state.withLock { state in
            guard !state.closed else { return false }
            state.segments = loaded.segments
            state.cleaner = loaded.cleaner
            // Cached batches were decompressed from the files before the swap, as a writer's
            // compaction forgets its own.
            state.cacheNumber = BatchCache.partitionNumber()
            return (state.segments.last?.nextOffset ?? 0) != before
        }
    }

    /// Takes in the batches after the segments held, up to `mark`, when the files continue them.
    private func follow(_ mark: DurableEnd?) throws -> Bool {
        // Before the listing: a compaction that dropped deletes since the reader loaded its
        // segments makes what it holds older than what it would add (reopened whole instead).
        let cleanerBefore = try CleanerCheckpoint.read(directory: directory)
        guard cleanerBefore.dropSequence == state.withLock({ $0.cleaner.dropSequence }) else { throw PartitionLoader.FilesMoved() }
        let bases = try FileSystem.list(directory)
            .compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        guard let lastBase = bases.last else { return false }
        if let mark, !bases.contains(mark.segmentBase), DurableEnd.read(partitionDirectory: directory) != mark {
            // The mark's segment was compacted away after a roll since the mark was read.
            throw PartitionLoader.FilesMoved()
        }
        let trusted = mark.flatMap { bases.contains($0.segmentBase) ? $0 : nil }
        let targetBase = trusted?.segmentBase ?? lastBase
        return try state.withLock { state in
            guard !state.closed else { return false }
            let before = state.segments.last?.nextOffset
            if let trusted, let before, trusted.nextOffset <= before { return false }
            if var active = state.segments.popLast() {
                defer { state.segments.append(active) }
                guard active.baseOffset <= targetBase else { return false }  // the log was cut (repair)
                if active.baseOffset == targetBase {
                    try active.follow(to: trusted?.position, maxBatchBytes: options.maxBatchBytes, stopAtDamage: trusted == nil)
                    return active.nextOffset != before
                }
                // The writer rolled: this segment was flushed whole before the next one began.
                try active.follow(to: nil, maxBatchBytes: options.maxBatchBytes, stopAtDamage: false)
                try active.seal(writingIndexFiles: false)
            }
            for base in bases where base > (state.segments.last?.baseOffset ?? -1) && base <= targetBase {
                if let expected = state.segments.last?.nextOffset, expected != base {
                    throw LogError.corruptBatch(
                        file: LogSegment.path(directory: directory, baseOffset: base), position: 0, offset: expected,
                        reason: "the previous segment ends at offset \(expected) but this one starts at \(base)")
                }
                let isLast = base == targetBase
                var report = RecoveryReport()
                let segment = try LogSegment.recover(
                    file: try OpenFile(path: LogSegment.path(directory: directory, baseOffset: base), writable: false),
                    directory: directory, baseOffset: base,
                    durableOffset: isLast ? (trusted?.nextOffset ?? 0) : .max, isLast: isLast,
                    visibleEnd: isLast ? trusted?.position : nil, laterData: { !isLast },
                    options: options, logger: logger, report: &report)
                state.segments.append(segment)
            }
            // After the segments: a compaction publishes its expiry offset before its swaps.
            state.cleaner = try CleanerCheckpoint.read(directory: directory)
            if state.cleaner.dropSequence != cleanerBefore.dropSequence { state.cleaner.dropSequence |= 1 }
            return state.segments.last?.nextOffset != before
        }
    }
}
