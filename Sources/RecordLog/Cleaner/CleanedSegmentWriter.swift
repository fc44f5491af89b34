import StorageKit

/// Writes one cleaned segment: the records a compaction keeps of a group of consecutive
/// segments, at their own offsets, in valid Kafka v2 batches that together span the group's
/// offsets without a hole.
///
/// Offsets never change, so a cleaned batch keeps its records' offset deltas (with gaps where
/// records were removed) and stretches over the removed records around them: its base offset is
/// where the previous batch ended, its `lastOffsetDelta` reaches the next one. Batch after batch
/// and segment after segment, offsets stay contiguous, so every reader's continuity check
/// holds; a read from a removed offset finds the batch spanning it and continues at the next
/// record. Small batches left by a compaction are merged up to ``targetBatchBytes`` of records
/// (one LZ4 block), a larger one stays as it was.
struct CleanedSegmentWriter {
    /// Records of consecutive input batches are merged into one batch up to this size.
    static let targetBatchBytes = 64 << 10

    let file: OpenFile
    let baseOffset: Int64
    let compression: CompressionCodec
    private(set) var indexer: SegmentIndexer
    private(set) var size: Int64 = 0
    private(set) var firstTimestamp: Int64?
    /// A batch ready but not written: the next kept record decides whether it ends where its
    /// input ended, or stretches to the group's end.
    private var held: (builder: RecordBatchBuilder, base: Int64, last: Int64)?
    /// The batch being filled, from `currentBase`.
    private var current = RecordBatchBuilder()
    private var currentBase: Int64
    private var currentLast: Int64

    init(file: OpenFile, baseOffset: Int64, indexIntervalBytes: Int, compression: CompressionCodec) {
        self.file = file
        self.baseOffset = baseOffset
        self.compression = compression
        indexer = SegmentIndexer(baseOffset: baseOffset, intervalBytes: indexIntervalBytes)
        currentBase = baseOffset
        currentLast = baseOffset - 1
    }

    /// Keeps `record` (of the input batch being read).
    mutating func keep(_ record: BorrowedLogRecord) {
        current.appendCopy(of: record, offsetDelta: Int32(truncatingIfNeeded: record.offset - currentBase))
    }

    /// Ends an input batch whose last offset is `lastOffset`: the batch being filled spans it.
    mutating func endInputBatch(lastOffset: Int64) throws {
        currentLast = lastOffset
        guard current.uncompressedSize >= Self.targetBatchBytes else { return }
        try rotate()
    }

    /// Ends the group at `endOffset` (one past its last offset): writes what is held, the last
    /// batch stretched to the end, and syncs the file.
    mutating func finish(endOffset: Int64) throws {
        let last = endOffset - 1
        if !current.isEmpty || held == nil {
            if let held { try write(held.builder, base: held.base, last: held.last) }
            // Records left, or none kept at all: one batch (maybe without records) to the end.
            try write(current, base: currentBase, last: last)
        } else if let held {
            try write(held.builder, base: held.base, last: last)
        }
        held = nil
        try file.syncData()
    }

    /// The batch being filled becomes the held one, once the one held before is written.
    private mutating func rotate() throws {
        if let held { try write(held.builder, base: held.base, last: held.last) }
        held = (current, currentBase, currentLast)
        current = RecordBatchBuilder()
        currentBase = currentLast + 1
    }

    private mutating func write(_ builder: RecordBatchBuilder, base: Int64, last: Int64) throws {
        let encoded = try builder.encode(compression: compression, lastOffsetDelta: Int32(truncatingIfNeeded: last - base))
        var bytes = encoded.bytes
        bytes.setInteger(base, at: 0)
        try file.write(bytes, at: size)
        guard let header = bytes.withUnsafeBytes({ RecordBatchHeader(parsing: $0) }) else {
            throw LogError.malformedBatch(reason: "a cleaned batch has no header")
        }
        indexer.didAppend(header, at: size)
        size += Int64(bytes.count)
        if firstTimestamp == nil, header.recordCount > 0 { firstTimestamp = header.firstTimestamp }
    }
}
