import Logging
import StorageKit

/// Finishes, on a writer's open, the swaps of a compaction that a crash interrupted
/// (FORMAT.md §13.1): a `<base>.log.swap` file is a cleaned segment written whole and synced,
/// holding the latest records of every segment whose base offset lies in its range. It replaces
/// them: their files are removed, and it is renamed to `<base>.log`. A `.log.cleaned` file was
/// not finished and is removed with the orphans (`PartitionLoader`).
struct SwapRecovery {
    let directory: String
    let options: LogOptions
    let logger: Logger

    /// A compaction's swap file and the offsets it replaces.
    struct Swap {
        /// The group's first base offset: the swap's file is `<base>.log.swap`.
        let base: Int64
        /// The offset after its last batch: it replaces every segment whose base lies in
        /// `base..<end`.
        let end: Int64
        let path: String
    }

    /// The swap files in the directory, each scanned for its end.
    ///
    /// - Throws: `LogError.corruptBatch` when a swap file does not hold whole, valid batches:
    ///   it was synced before it got its name, so that is damage, not a torn write.
    func pending() throws -> [Swap] {
        let swaps = try FileSystem.list(directory).compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.swapSuffix) }.sorted()
        return try swaps.map { base in
            let path = LogSegment.path(directory: directory, baseOffset: base, suffix: SegmentName.swapSuffix)
            let file = try OpenFile(path: path, writable: false)
            let outcome = try SegmentScanner(file: file, fileSize: try file.size(), maxBatchBytes: options.maxBatchBytes)
                .scan(from: 0, expectedOffset: base) { _, _, _ in }
            if let (position, problem) = outcome.problem {
                throw LogError.corruptBatch(
                    file: path, position: position, offset: outcome.nextOffset,
                    reason: "\(problem.description); a compaction's swap file is whole once named, so this is damage")
            }
            return Swap(base: base, end: outcome.nextOffset, path: path)
        }
    }

    /// - Throws: `LogError.corruptBatch` when a swap file does not hold whole, valid batches.
    func finish(report: inout RecoveryReport) throws {
        let swaps = try pending()
        guard !swaps.isEmpty else { return }
        let logs = try FileSystem.list(directory).compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }
        for swap in swaps {
            for replaced in logs where replaced >= swap.base && replaced < swap.end {
                for suffix in [SegmentName.indexSuffix, SegmentName.timeIndexSuffix] {
                    try FileSystem.remove(LogSegment.path(directory: directory, baseOffset: replaced, suffix: suffix))
                }
                if replaced != swap.base {
                    let path = LogSegment.path(directory: directory, baseOffset: replaced)
                    try FileSystem.remove(path)
                    report.removedFiles.append(path)
                }
            }
            try FileSystem.syncDirectory(directory)
            try FileSystem.rename(swap.path, LogSegment.path(directory: directory, baseOffset: swap.base))
            try FileSystem.syncDirectory(directory)
            report.finishedSwaps.append(swap.path)
            logger.notice("finished an interrupted compaction's swap", metadata: ["file": "\(swap.path)", "endOffset": "\(swap.end)"])
        }
    }
}
