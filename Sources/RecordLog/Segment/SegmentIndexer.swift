/// Builds a segment's offset and time indexes as batches are appended or scanned, by Kafka's
/// rules, so that an index built while writing and one rebuilt by recovery are identical:
/// an entry for a batch when more than `intervalBytes` were written since the last entry.
struct SegmentIndexer: Sendable, Equatable {
    let baseOffset: Int64
    let intervalBytes: Int
    private(set) var offsetIndex = OffsetIndex()
    private(set) var timeIndex = TimeIndex()
    private var bytesSinceLastEntry = 0
    /// The largest batch max-timestamp so far, -1 before any batch (Kafka's NO_TIMESTAMP).
    private(set) var maxTimestamp: Int64 = -1
    private var relativeOffsetOfMaxTimestamp: Int32 = 0

    init(baseOffset: Int64, intervalBytes: Int) {
        self.baseOffset = baseOffset
        self.intervalBytes = intervalBytes
    }

    /// Starts from index files loaded from disk (a sealed segment).
    init(baseOffset: Int64, intervalBytes: Int, offsetIndex: OffsetIndex, timeIndex: TimeIndex) {
        self.init(baseOffset: baseOffset, intervalBytes: intervalBytes)
        self.offsetIndex = offsetIndex
        self.timeIndex = timeIndex
        if let last = timeIndex.entries.last {
            maxTimestamp = last.timestamp
            relativeOffsetOfMaxTimestamp = last.relativeOffset
        }
    }

    /// Records a batch written or found at `position`.
    mutating func didAppend(_ header: RecordBatchHeader, at position: Int64) {
        let relativeLast = Int32(truncatingIfNeeded: header.lastOffset - baseOffset)
        if header.maxTimestamp > maxTimestamp {
            maxTimestamp = header.maxTimestamp
            relativeOffsetOfMaxTimestamp = relativeLast
        }
        if bytesSinceLastEntry > intervalBytes {
            offsetIndex.append(relativeOffset: relativeLast, position: Int32(truncatingIfNeeded: position))
            timeIndex.maybeAppend(timestamp: maxTimestamp, relativeOffset: relativeOffsetOfMaxTimestamp)
            bytesSinceLastEntry = 0
        }
        bytesSinceLastEntry += header.totalSize
    }

    /// Adds the closing time-index entry Kafka writes when a segment stops being written.
    mutating func seal() {
        guard maxTimestamp >= 0 else { return }
        timeIndex.maybeAppend(timestamp: maxTimestamp, relativeOffset: relativeOffsetOfMaxTimestamp)
    }
}
