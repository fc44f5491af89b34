import Logging
import StorageKit

// Recovery: every batch validated, the indexes rebuilt from them, and the first invalid bytes
// judged by the one rule (`InvalidBytes`) — cut when they are a torn tail or preallocated zeros.
extension LogSegment {
    /// What validating a segment file found: its valid batches and, when invalid bytes follow
    /// them, where, what is wrong there, and what they are by `InvalidBytes`.
    struct Validation {
        let scanner: SegmentScanner
        let outcome: SegmentScanner.Outcome
        /// The first invalid bytes and their verdict; nil when the file holds only whole batches.
        let invalid: (position: Int64, problem: BatchProblem, verdict: InvalidBytes)?
    }

    /// Validates every batch of the segment file at `file`, whose first batch must have
    /// `baseOffset`, calling `visit` with each valid one, and classifies the first invalid
    /// bytes: the one place the writer's open, a read-only open and `Log.repair` decide.
    ///
    /// - Parameters:
    ///   - durableOffset: every offset below it was made durable and acknowledged.
    ///   - writerLive: whether a writer may be appending now (a read-only open assumes so).
    ///   - laterData: whether a later segment of the partition holds bytes; asked only when
    ///     there are invalid bytes.
    ///   - visibleEnd: where a reader stops (the writer's durable-end mark), when before the
    ///     file's end: the bytes after it are not looked at.
    static func validate(
        file: OpenFile, baseOffset: Int64, durableOffset: Int64, writerLive: Bool, maxBatchBytes: Int,
        visibleEnd: Int64? = nil, laterData: () throws -> Bool, visit: (RecordBatchHeader, Int64) -> Void = { _, _ in }
    ) throws -> Validation {
        let size = min(try file.size(), visibleEnd ?? .max)
        // A writer's open holds the store's lock: no other process cuts the file while it is
        // read in place (an empty file cannot be mapped, and has nothing to read).
        let inPlace = writerLive || size == 0 ? nil : try? FilePass(file)
        let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: maxBatchBytes, inPlace: inPlace)
        let outcome = try scanner.scan(from: 0, expectedOffset: baseOffset) { header, position, _ in visit(header, position) }
        guard let (position, problem) = outcome.problem else {
            return Validation(scanner: scanner, outcome: outcome, invalid: nil)
        }
        let verdict = try InvalidBytes.classify(
            expectedOffset: outcome.nextOffset, durableOffset: durableOffset, laterData: try laterData(),
            writerLive: writerLive,
            validFollows: { try scanner.firstValidBatch(from: position) != nil },
            allZeros: { try scanner.isAllZero(from: position) })
        return Validation(scanner: scanner, outcome: outcome, invalid: (position, problem, verdict))
    }

    /// Opens a segment by validating every batch of its file and rebuilding its indexes from
    /// them. A torn tail or preallocated zeros after the last whole batch are cut (and synced)
    /// unless the open is read-only; a read-only open leaves a live writer's tail alone.
    /// A segment that is not the partition's last is sealed, and its index files written when
    /// the open may write.
    ///
    /// - Parameters:
    ///   - durableOffset: the partition's durable point: offsets below it were acknowledged.
    ///   - isLast: whether this is the partition's last (active) segment.
    ///   - laterData: whether a later segment holds bytes; asked only for invalid bytes.
    ///   - visibleEnd: for a read-only open, the position of the writer's durable-end mark in
    ///     this segment: the segment is read up to there and no further.
    /// - Throws: `LogError.corruptBatch` when the invalid bytes are damage (`InvalidBytes`).
    static func recover(
        file: OpenFile, directory: String, baseOffset: Int64, durableOffset: Int64, isLast: Bool, visibleEnd: Int64? = nil,
        laterData: () throws -> Bool, options: LogOptions, logger: Logger, report: inout RecoveryReport
    ) throws -> LogSegment {
        var indexer = SegmentIndexer(baseOffset: baseOffset, intervalBytes: options.indexIntervalBytes)
        let validation = try validate(
            file: file, baseOffset: baseOffset, durableOffset: durableOffset, writerLive: options.readOnly,
            maxBatchBytes: options.maxBatchBytes, visibleEnd: visibleEnd, laterData: laterData
        ) { header, position in indexer.didAppend(header, at: position) }
        let outcome = validation.outcome
        if let (position, problem, verdict) = validation.invalid {
            let size = validation.scanner.fileSize
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
        if !options.readOnly, !isLast || validation.invalid != nil {
            report.rebuiltIndexes.append(file.path)
        }
        var segment = LogSegment(
            baseOffset: baseOffset, file: file, directory: directory, size: outcome.validEnd, allocated: outcome.validEnd,
            nextOffset: outcome.nextOffset, firstTimestamp: outcome.firstTimestamp, indexer: indexer)
        if !isLast { try segment.seal(writingIndexFiles: !options.readOnly) }
        segment.checkInvariants()
        return segment
    }
}
