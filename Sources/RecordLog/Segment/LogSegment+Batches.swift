import StorageKit

// Every batch of a sealed segment, in order: what a compaction reads.
extension LogSegment {
    /// Calls `body` with each batch of the segment, validated (CRC, offsets) as it is read.
    ///
    /// - Throws: `LogError.corruptBatch` when the file no longer holds the segment's batches.
    func forEachBatch(maxBatchBytes: Int, _ body: (RecordBatch) throws -> Void) throws {
        let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: maxBatchBytes)
        let outcome = try scanner.scan(from: 0, expectedOffset: baseOffset) { header, _, bytes in
            try body(RecordBatch(validated: header, bytes: Array(bytes)[...]))
        }
        if let (position, problem) = outcome.problem {
            throw LogError.corruptBatch(file: path, position: position, offset: outcome.nextOffset, reason: problem.description)
        }
        guard outcome.nextOffset == nextOffset else {
            throw LogError.corruptBatch(
                file: path, position: outcome.validEnd, offset: outcome.nextOffset,
                reason: "the segment ends at offset \(outcome.nextOffset), not \(nextOffset)")
        }
    }
}
