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

    /// - Throws: `LogError.corruptBatch` when a swap file does not hold whole, valid batches:
    ///   it was synced before it got its name, so that is damage, not a torn write.
    func finish(report: inout RecoveryReport) throws {
        let names = try FileSystem.list(directory)
        let swaps = names.compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.swapSuffix) }.sorted()
        guard !swaps.isEmpty else { return }
        let logs = names.compactMap { SegmentName.baseOffset(of: $0, suffix: SegmentName.logSuffix) }
        for base in swaps {
            let swapPath = LogSegment.path(directory: directory, baseOffset: base, suffix: SegmentName.swapSuffix)
            let file = try OpenFile(path: swapPath, writable: false)
            let size = try file.size()
            let outcome = try SegmentScanner(file: file, fileSize: size, maxBatchBytes: options.maxBatchBytes)
                .scan(from: 0, expectedOffset: base) { _, _, _ in }
            if let (position, problem) = outcome.problem {
                throw LogError.corruptBatch(
                    file: swapPath, position: position, offset: outcome.nextOffset,
                    reason: "\(problem.description); a compaction's swap file is whole once named, so this is damage")
            }
            let end = outcome.nextOffset
            for replaced in logs where replaced >= base && replaced < end {
                for suffix in [SegmentName.indexSuffix, SegmentName.timeIndexSuffix] {
                    try FileSystem.remove(LogSegment.path(directory: directory, baseOffset: replaced, suffix: suffix))
                }
                if replaced != base {
                    let path = LogSegment.path(directory: directory, baseOffset: replaced)
                    try FileSystem.remove(path)
                    report.removedFiles.append(path)
                }
            }
            try FileSystem.syncDirectory(directory)
            try FileSystem.rename(swapPath, LogSegment.path(directory: directory, baseOffset: base))
            try FileSystem.syncDirectory(directory)
            report.finishedSwaps.append(swapPath)
            logger.notice("finished an interrupted compaction's swap", metadata: ["file": "\(swapPath)", "endOffset": "\(end)"])
        }
    }
}
