import StorageKit

// Following a writer: a reader's copy of a segment grows as the writer makes more of it durable.
extension LogSegment {
    /// Takes in the whole batches the writer added after `size`, up to `end` (the writer's
    /// durable-end position in this segment; nil: to the file's end, the segment having been
    /// sealed by its writer), validating each and indexing it as recovery would.
    ///
    /// - Parameter stopAtDamage: without a mark to trust, invalid bytes are the writer's live
    ///   tail and end the extension; with one, they lie below what was made durable.
    /// - Throws: `LogError.corruptBatch` for invalid bytes below `end` (unless `stopAtDamage`).
    mutating func follow(to end: Int64?, maxBatchBytes: Int, stopAtDamage: Bool) throws {
        let limit = min(try file.size(), end ?? .max)
        guard limit > size else { return }
        let scanner = SegmentScanner(file: file, fileSize: limit, maxBatchBytes: maxBatchBytes)
        var indexer = self.indexer
        let outcome = try scanner.scan(from: size, expectedOffset: nextOffset) { header, position, _ in
            indexer.didAppend(header, at: position)
        }
        if let (position, problem) = outcome.problem, !stopAtDamage {
            throw LogError.corruptBatch(
                file: path, position: position, offset: outcome.nextOffset,
                reason: "\(problem.description); the writer's durable-end mark lies beyond it, so it is damage")
        }
        if firstTimestamp == nil { firstTimestamp = outcome.firstTimestamp }
        self.indexer = indexer
        size = outcome.validEnd
        allocated = max(allocated, size)
        nextOffset = outcome.nextOffset
        checkInvariants()
    }
}
