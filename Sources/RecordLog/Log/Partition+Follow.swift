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

    /// A read-only partition's catch-up with its writer in another process: takes in the whole
    /// batches up to the writer's current durable-end mark — across segment rolls — and nothing
    /// after it. Without a usable mark it takes every whole batch, as a read-only open does.
    /// Returns whether the partition grew.
    ///
    /// - Throws: `LogError.corruptBatch` for damage below the mark.
    func catchUp() throws -> Bool {
        guard options.readOnly else { return false }
        // The mark first: whatever the files hold by the time they are read, at least that much.
        let mark = DurableEnd.read(partitionDirectory: directory)
        // The common case, nothing new: one read of the mark, no listing.
        if let mark, mark.nextOffset <= endOffset { return false }
        let bases = try FileSystem.list(directory)
            .compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        guard let lastBase = bases.last else { return false }
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
            return state.segments.last?.nextOffset != before
        }
    }
}
