import Logging
import StorageKit

/// Opens a partition directory: finds its segments, loads the indexes of the segments below the
/// recovery point, and validates every batch from the recovery point on. Invalid bytes are
/// judged by `InvalidBytes`: a torn tail (beyond the durable point, nothing valid after it) is
/// cut away; damage to durable batches, or followed by valid data, stops the open with the file,
/// position and offset.
struct PartitionLoader {
    let directory: String
    let options: LogOptions
    let logger: Logger

    struct Loaded {
        var zone: String
        var segments: [SegmentState]
        var recoveryPoint: Int64
    }

    func load(recoveryPoint checkpoint: Int64?, report: inout RecoveryReport) throws -> Loaded {
        // The mark first: whatever a reader then finds in the files is at least what it names.
        let mark = DurableEnd.read(partitionDirectory: directory)
        let zone = try PartitionFiles.readZoneName(directory: directory)
        let names = try FileSystem.list(directory)
        var bases = names.compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }.sorted()
        if !options.readOnly { try removeOrphans(names: names, bases: Set(bases), report: &report) }
        if bases.isEmpty {
            guard !options.readOnly else { return Loaded(zone: zone, segments: [], recoveryPoint: 0) }
            bases = [0]
            _ = try PartitionFiles.createSegment(directory: directory, baseOffset: 0, intervalBytes: options.indexIntervalBytes)
        }
        let recoveryPoint = checkpoint ?? 0
        let durable = max(recoveryPoint, mark?.nextOffset ?? 0)
        var segments: [SegmentState] = []
        for (index, base) in bases.enumerated() {
            let nextBase = index + 1 < bases.count ? bases[index + 1] : nil
            let path = FileSystem.join(directory, SegmentName.stem(base) + SegmentName.logSuffix)
            let file = try OpenFile(path: path, writable: !options.readOnly)
            if let expected = segments.last?.nextOffset, expected != base {
                throw LogError.corruptBatch(
                    file: path, position: 0, offset: expected,
                    reason: "the previous segment ends at offset \(expected) but this one starts at \(base)")
            }
            if let nextBase, nextBase <= recoveryPoint, let sealed = try loadSealed(file: file, base: base, nextBase: nextBase) {
                segments.append(sealed)
                continue
            }
            var segment = try scan(file: file, base: base, laterBases: bases[(index + 1)...], durable: durable, report: &report)
            if nextBase != nil {
                segment.indexer.seal()
                if !options.readOnly { try segment.writeIndexFiles(directory: directory) }
            }
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
        return Loaded(zone: zone, segments: segments, recoveryPoint: min(recoveryPoint, end))
    }

    /// Index files without a segment, and temporary files of an interrupted atomic write.
    private func removeOrphans(names: [String], bases: Set<Int64>, report: inout RecoveryReport) throws {
        for name in names {
            let orphanIndex = [SegmentName.indexSuffix, SegmentName.timeIndexSuffix].contains { suffix in
                SegmentName.baseOffset(of: name, suffix: suffix).map { !bases.contains($0) } ?? false
            }
            if orphanIndex || name.hasSuffix(".tmp") {
                let path = FileSystem.join(directory, name)
                try FileSystem.remove(path)
                report.removedFiles.append(path)
                logger.info("removed orphan file", metadata: ["file": "\(path)"])
            }
        }
    }

    /// A segment below the recovery point: trusted as synced, its indexes loaded when they pass
    /// the sanity checks. Nil when an index is missing or inconsistent (the caller rescans).
    private func loadSealed(file: OpenFile, base: Int64, nextBase: Int64) throws -> SegmentState? {
        let size = try file.size()
        let stem = FileSystem.join(directory, SegmentName.stem(base))
        let indexPath = stem + SegmentName.indexSuffix, timePath = stem + SegmentName.timeIndexSuffix
        guard FileSystem.exists(indexPath), FileSystem.exists(timePath),
            let offsetIndex = OffsetIndex(parsing: try FileSystem.readAll(indexPath), segmentSize: size, offsetSpan: nextBase - base),
            let timeIndex = TimeIndex(parsing: try FileSystem.readAll(timePath), offsetSpan: nextBase - base),
            // A sealed segment with batches always has a closing time-index entry.
            size == 0 || !timeIndex.entries.isEmpty
        else {
            logger.info("rebuilding index", metadata: ["segment": "\(file.path)"])
            return nil
        }
        let first = try file.read(at: 0, count: RecordBatchHeader.size)
        let firstTimestamp = first.withUnsafeBytes { RecordBatchHeader(parsing: $0)?.firstTimestamp }
        return SegmentState(
            baseOffset: base, file: file, size: size, nextOffset: nextBase, firstTimestamp: firstTimestamp,
            indexer: SegmentIndexer(
                baseOffset: base, intervalBytes: options.indexIntervalBytes, offsetIndex: offsetIndex, timeIndex: timeIndex))
    }

    /// Whether the file holds only zero bytes in `start..<end`.
    static func isAllZero(_ file: OpenFile, from start: Int64, to end: Int64) throws -> Bool {
        var position = start
        while position < end {
            let chunk = try file.read(at: position, count: Int(min(end - position, 1 << 20)))
            guard !chunk.isEmpty else { return true }
            if chunk.contains(where: { $0 != 0 }) { return false }
            position += Int64(chunk.count)
        }
        return true
    }

    /// Validates every batch of a segment, rebuilding its indexes, and handles an invalid tail.
    private func scan(
        file: OpenFile, base: Int64, laterBases: ArraySlice<Int64>, durable: Int64, report: inout RecoveryReport
    ) throws -> SegmentState {
        let size = try file.size()
        let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: options.maxBatchBytes)
        var indexer = SegmentIndexer(baseOffset: base, intervalBytes: options.indexIntervalBytes)
        let outcome = try scanner.scan(from: 0, expectedOffset: base) { header, position, _ in
            indexer.didAppend(header, at: position)
        }
        if let (position, problem) = outcome.problem {
            let verdict = try InvalidBytes.classify(
                expectedOffset: outcome.nextOffset, durableOffset: durable,
                laterData: try laterBases.contains { later in
                    let path = FileSystem.join(directory, SegmentName.stem(later) + SegmentName.logSuffix)
                    return try OpenFile(path: path, writable: false).size() > 0
                },
                writerLive: options.readOnly,
                validFollows: { try scanner.firstValidBatch(from: position) != nil },
                allZeros: { try Self.isAllZero(file, from: position, to: size) })
            switch verdict {
            case .corruption(let why):
                throw LogError.corruptBatch(
                    file: file.path, position: position, offset: outcome.nextOffset, reason: "\(problem.description); \(why)")
            case .liveTail:
                break  // a read-only open: the writer's next append, not yet whole
            case .tornTail, .preallocated:
                // An append that never completed (never acknowledged), or the zeros a writer
                // preallocated and did not get to cut.
                try file.truncate(to: position)
                try file.syncData()
                let cut = RecoveryReport.TruncatedTail(
                    file: file.path, position: position, bytesRemoved: size - position, reason: problem.description)
                if verdict == .preallocated {
                    report.trimmedPreallocations.append(cut)
                    logger.info("trimmed preallocated space", metadata: ["file": "\(file.path)", "bytes": "\(size - position)"])
                } else {
                    report.truncatedTails.append(cut)
                    logger.warning(
                        "truncated torn tail",
                        metadata: ["file": "\(file.path)", "position": "\(position)", "bytes": "\(size - position)"])
                }
            }
        }
        if !options.readOnly, !laterBases.isEmpty || outcome.problem != nil {
            report.rebuiltIndexes.append(file.path)
        }
        return SegmentState(
            baseOffset: base, file: file, size: outcome.validEnd, allocated: outcome.validEnd, nextOffset: outcome.nextOffset,
            firstTimestamp: outcome.firstTimestamp, indexer: indexer)
    }
}
