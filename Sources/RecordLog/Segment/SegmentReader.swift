import StorageKit
/// Reads any Kafka v2 segment file — ours or another writer's — batch by batch, for tools.
///
/// ```swift
/// let segment = try SegmentReader(path: "zones/Notes/00000000000000000000.log")
/// let outcome = try segment.readBatches { batch, position in print(position, batch.header.baseOffset) }
/// if let problem = outcome.problem { print(problem.position, problem.problem) }
/// ```
package struct SegmentReader: Sendable {
    /// What reading a segment found.
    package struct Outcome: Sendable {
        /// The end of the last valid batch.
        package var validEnd: Int64
        /// One past the last valid offset.
        package var nextOffset: Int64
        package var batchCount: Int
        package var recordCount: Int
        /// The first invalid batch, if any.
        package var problem: (position: Int64, problem: BatchProblem)?
        /// Whether a valid batch follows the problem: mid-log corruption, not a torn tail.
        package var validBatchFollows: Bool
        /// Whether everything from the problem to the end of the file is zero bytes: space a
        /// writer preallocated (`LogOptions.preallocationBytes`), not a torn write.
        package var trailingZeros: Bool
    }

    package let path: String
    /// The file's size in bytes.
    package let size: Int64
    let file: OpenFile
    let maxBatchBytes: Int

    /// Opens a segment file read-only.
    package init(path: String, maxBatchBytes: Int = LogOptions.defaultMaxBatchBytes) throws {
        self.path = path
        self.maxBatchBytes = maxBatchBytes
        let opened = try LogError.translating { try OpenFile(path: path, writable: false) }
        file = opened
        size = try LogError.translating { try opened.size() }
    }

    /// The base offset the file name states (20 digits + `.log`), if it has such a name.
    package var namedBaseOffset: Int64? {
        SegmentName.baseOffset(of: String(path.split(separator: "/").last ?? ""), suffix: SegmentName.logSuffix)
    }

    /// Calls `body` with each valid batch and its position, in file order, until the end or the
    /// first invalid batch. Offsets must continue from one batch to the next; the first batch may
    /// start anywhere unless `expectedBaseOffset` is given.
    package func readBatches(
        expectedBaseOffset: Int64? = nil, _ body: (RecordBatch, Int64) throws -> Void
    ) throws -> Outcome {
        return try LogError.translating {
            let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: maxBatchBytes)
            var first = expectedBaseOffset
            if first == nil {
                let head = try file.read(at: 0, count: RecordBatchHeader.size)
                first = head.withUnsafeBytes { RecordBatchHeader(parsing: $0)?.baseOffset } ?? 0
            }
            let outcome = try scanner.scan(from: 0, expectedOffset: first ?? 0) { header, position, bytes in
                try body(RecordBatch(validated: header, bytes: Array(bytes)[...]), position)
            }
            var follows = false, zeros = false
            if let (position, _) = outcome.problem {
                follows = try scanner.firstValidBatch(from: position) != nil
                zeros = try scanner.isAllZero(from: position)
            }
            return Outcome(
                validEnd: outcome.validEnd, nextOffset: outcome.nextOffset, batchCount: outcome.batchCount,
                recordCount: outcome.recordCount, problem: outcome.problem, validBatchFollows: follows, trailingZeros: zeros)
        }
    }

    /// Compares the `.index` and `.timeindex` files beside the segment with the ones rebuilt
    /// from its batches; returns what differs (nothing when both match or the files are absent).
    /// - Parameter sealed: whether the segment is no longer written (its time index then ends
    ///   with the closing entry).
    package func indexProblems(indexIntervalBytes: Int = 4096, sealed: Bool = true) throws -> [String] {
        return try LogError.translating {
            let base = namedBaseOffset ?? 0
            var indexer = SegmentIndexer(baseOffset: base, intervalBytes: indexIntervalBytes)
            _ = try readBatches(expectedBaseOffset: base) { batch, position in indexer.didAppend(batch.header, at: position) }
            if sealed { indexer.seal() }
            let stem = String(path.dropLast(SegmentName.logSuffix.count))
            var problems: [String] = []
            for (suffix, expected) in [
                (SegmentName.indexSuffix, indexer.offsetIndex.serialized()), (SegmentName.timeIndexSuffix, indexer.timeIndex.serialized()),
            ] {
                let indexPath = stem + suffix
                guard FileSystem.exists(indexPath) else { continue }
                let actual = try FileSystem.readAll(indexPath)
                if actual != expected {
                    problems.append("\(indexPath): \(actual.count) bytes differ from the \(expected.count) bytes rebuilt from the segment")
                }
            }
            return problems
        }
    }
}
