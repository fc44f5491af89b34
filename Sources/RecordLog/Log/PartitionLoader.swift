import Logging
import StorageKit

/// Opens a partition directory (Kafka's `LogLoader`): finds its segments, opens the sealed ones
/// below the recovery point with their index files, and recovers every segment from the recovery
/// point on (`LogSegment.recover`: every batch validated, invalid bytes judged by
/// `InvalidBytes`: a torn tail — beyond the durable point, nothing valid after it — is cut away;
/// damage to durable batches, or followed by valid data, stops the open with the file, position
/// and offset).
struct PartitionLoader {
    let directory: String
    let options: LogOptions
    let logger: Logger

    struct Loaded {
        var zone: String
        var segments: [LogSegment]
        var recoveryPoint: Int64
        var cleaner: CleanerCheckpoint
    }

    func load(recoveryPoint checkpoint: Int64?, report: inout RecoveryReport) throws -> Loaded {
        // The mark first: whatever a reader then finds in the files is at least what it names.
        let mark = DurableEnd.read(partitionDirectory: directory)
        let zone = try PartitionFiles.readZoneName(directory: directory)
        var cleaner = try CleanerCheckpoint.read(directory: directory)
        if !options.readOnly {
            try settleCompaction(logStart: cleaner.logStartOffset, report: &report)
            // A compaction that dropped deletes stopped before its end: its swaps are settled now.
            if cleaner.isDropping {
                cleaner.endDropping()
                try cleaner.write(directory: directory)
            }
        }
        var bases = try FileSystem.list(directory).compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        // A reader reads a compaction's swap as the writer's open would finish it (FORMAT.md
        // §13.1): the swap file in place of every segment it replaces. Until the writer renames
        // it over `<base>.log`, the old segments listed may no longer continue each other (the
        // ones after the first are removed first), and a crashed compaction leaves it so until
        // the next writer's open.
        let swaps = options.readOnly ? try SwapRecovery(directory: directory, options: options, logger: logger).pending() : []
        for swap in swaps {
            bases.removeAll { $0 >= swap.base && $0 < swap.end }
            bases.append(swap.base)
        }
        bases.sort()
        func segmentPath(_ base: Int64) -> String {
            swaps.first { $0.base == base }?.path ?? LogSegment.path(directory: directory, baseOffset: base)
        }
        // A reader ignores the segments a compaction emptied and had not removed yet when it
        // stopped (a writer has just removed them).
        let start = cleaner.logStartOffset
        bases.removeAll { $0 < start }
        if let first = bases.first, first != start {
            throw LogError.corruptBatch(
                file: LogSegment.path(directory: directory, baseOffset: first), position: 0, offset: start,
                reason: "the log starts at offset \(start) (\(CleanerCheckpoint.fileName)) but its first segment at \(first): "
                    + "offsets \(start)..<\(first) are missing")
        }
        // A reader sees what the writer has made durable, no more (FORMAT.md §7.2): the segments
        // up to the mark's, that one up to the mark's position. Without a usable mark it falls
        // back to every whole batch in the files.
        if options.readOnly, let mark, !bases.contains(mark.segmentBase), DurableEnd.read(partitionDirectory: directory) != mark {
            // The writer rolled, and a compaction took in the mark's segment, since the mark
            // was read: a fresh mark names a segment that is there.
            throw FilesMoved()
        }
        let visible = options.readOnly ? visibleEnd(mark, bases: bases) : nil
        if let visible { bases = bases.filter { $0 <= visible.segmentBase } }
        let recoveryPoint = checkpoint ?? 0
        let durable = max(recoveryPoint, mark?.nextOffset ?? 0)
        if bases.isEmpty {
            // No segment at all: a zone that never held a record (a writer makes its first
            // segment), or one whose acknowledged records are gone — refused before anything
            // is made, by a reader as by the writer.
            if durable > start {
                throw LogError.corruptBatch(
                    file: LogSegment.path(directory: directory, baseOffset: start), position: 0, offset: start,
                    reason: "the zone has no segment, but offsets below \(durable) were made durable and acknowledged: "
                        + "\(durable - start) of them are missing")
            }
            guard !options.readOnly else { return Loaded(zone: zone, segments: [], recoveryPoint: 0, cleaner: cleaner) }
            bases = [start]
            _ = try LogSegment.create(directory: directory, baseOffset: start, indexIntervalBytes: options.indexIntervalBytes)
        }
        var segments: [LogSegment] = []
        for (index, base) in bases.enumerated() {
            let nextBase = index + 1 < bases.count ? bases[index + 1] : nil
            let path = segmentPath(base)
            let file = try OpenFile(path: path, writable: !options.readOnly)
            if let expected = segments.last?.nextOffset, expected != base {
                throw LogError.corruptBatch(
                    file: path, position: 0, offset: expected,
                    reason: "the previous segment ends at offset \(expected) but this one starts at \(base)")
            }
            // A swap's index files are not written yet (those by its name are the old segment's).
            if let nextBase, nextBase <= recoveryPoint, !swaps.contains(where: { $0.base == base }) {
                if let sealed = try LogSegment.openSealed(
                    file: file, directory: directory, baseOffset: base, nextOffset: nextBase,
                    indexIntervalBytes: options.indexIntervalBytes)
                {
                    // A reader read the index files by name: a compaction may have renamed a
                    // cleaned segment over this one since it was opened, and its index with it.
                    if options.readOnly, !file.isStillNamed() { throw FilesMoved() }
                    segments.append(sealed)
                    continue
                }
                logger.info("rebuilding index", metadata: ["segment": "\(file.path)"])
            }
            let later = bases[(index + 1)...]
            var segment = try LogSegment.recover(
                file: file, directory: directory, baseOffset: base, durableOffset: durable, isLast: nextBase == nil,
                visibleEnd: visible.flatMap { $0.segmentBase == base ? $0.position : nil },
                laterData: {
                    try later.contains { try OpenFile(path: segmentPath($0), writable: false).size() > 0 }
                },
                options: options, logger: logger, report: &report)
            if nextBase == nil, !options.readOnly, segment.nextOffset <= recoveryPoint { segment.adoptIndexFiles() }
            segments.append(segment)
        }
        let end = segments.last?.nextOffset ?? 0
        if end < durable, let last = segments.last {
            // Whole batches are gone (a file cut short on a batch boundary, a segment removed):
            // nothing is left to tell a torn write by, but they had been acknowledged.
            throw LogError.corruptBatch(
                file: last.path, position: last.size, offset: end,
                reason: "the log ends at offset \(end), but offsets below \(durable) were made durable and acknowledged: "
                    + "\(durable - end) of them are missing")
        }
        return Loaded(zone: zone, segments: segments, recoveryPoint: min(recoveryPoint, end), cleaner: cleaner)
    }

    /// Settles what a compaction left half done when it stopped (FORMAT.md §13.1): finishes its
    /// swaps, removes the segments below the log start it had emptied, its unfinished cleaned
    /// segment, and orphan index and temporary files. What a writer's open does first, and
    /// `Log.repair` the same way.
    ///
    /// - Throws: `LogError.corruptBatch` naming a `.swap` file that does not hold whole batches.
    func settleCompaction(logStart: Int64, report: inout RecoveryReport) throws {
        try SwapRecovery(directory: directory, options: options, logger: logger).finish(report: &report)
        let names = try FileSystem.list(directory)
        var bases = names.compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        let emptied = bases.prefix { $0 < logStart }
        bases.removeFirst(emptied.count)
        for base in emptied {
            let path = LogSegment.path(directory: directory, baseOffset: base)
            try FileSystem.remove(path)
            report.removedFiles.append(path)
        }
        try removeOrphans(names: names, bases: Set(bases), report: &report)
    }

    /// Where a reader stops: the mark, when it names one of the partition's segments. A mark
    /// that does not (a damaged mark file, a store written before marks, a segment removed under
    /// it) is ignored, and the reader reads every whole batch as before marks existed.
    private func visibleEnd(_ mark: DurableEnd?, bases: [Int64]) -> DurableEnd? {
        guard let mark else {
            if DurableEnd.isDamaged(partitionDirectory: directory) {
                logger.warning(
                    "the durable-end mark is damaged and ignored; reading every whole batch",
                    metadata: ["partition": "\(directory)"])
            }
            return nil
        }
        guard bases.contains(mark.segmentBase) || (bases.isEmpty && mark.nextOffset == 0) else {
            logger.warning(
                "the durable-end mark names a segment that is not there; ignored, reading every whole batch",
                metadata: ["partition": "\(directory)", "segmentBase": "\(mark.segmentBase)"])
            return nil
        }
        return mark
    }

    /// Index files without a segment, temporary files of an interrupted atomic write, and a
    /// compaction's cleaned segment that was not written whole (FORMAT.md §13.1).
    private func removeOrphans(names: [String], bases: Set<Int64>, report: inout RecoveryReport) throws {
        for name in names {
            let orphanIndex = [SegmentName.indexSuffix, SegmentName.timeIndexSuffix].contains { suffix in
                SegmentName.baseOffset(of: name, suffix: suffix).map { !bases.contains($0) } ?? false
            }
            if orphanIndex || name.hasSuffix(".tmp") || name.hasSuffix(SegmentName.cleanedSuffix) {
                let path = FileSystem.join(directory, name)
                try FileSystem.remove(path)
                report.removedFiles.append(path)
                logger.info("removed orphan file", metadata: ["file": "\(path)"])
            }
        }
    }
}
