import StorageKit

/// One segment of a partition (Kafka's `LogSegment`): a `.log` file of record batches with
/// dense offsets from `baseOffset`, and its sparse offset and time indexes. It does its own
/// segment work — append at its end (`LogSegment+Append`), read from an offset
/// (`LogSegment+Read`), recover on open (`LogSegment+Recover`), flush and seal
/// (`LogSegment+Seal`), truncate to an offset (`LogSegment+Truncate`) — and checks its own
/// invariants in debug builds (`LogSegment+Invariants`).
///
/// A value: `Partition` keeps its segments in its state, behind its lock, and mutates the
/// active one there; a read copies the segments it needs and reads their files without the lock.
/// What concerns the whole partition — which segment is active, when to roll, the durable-end
/// mark, group commit — stays with `Partition`.
///
/// ```swift
/// var segment = try LogSegment.create(directory: dir, baseOffset: 0, indexIntervalBytes: 4096)
/// let offsets = try segment.append(batch, preallocationBytes: 0, segmentBytes: 1 << 20)  // 0..<n
/// try segment.flush()                              // on disk, zeros written ahead cut
/// try segment.seal(writingIndexFiles: true)        // .index and .timeindex beside it
/// ```
///
/// Its state is settable within the module only because Swift's `private(set)` does not reach
/// the `LogSegment+…` files: only the segment's own methods change it, and each ends by
/// checking the invariants.
struct LogSegment: Sendable {
    let baseOffset: Int64
    let file: OpenFile
    /// The partition directory holding the segment's files.
    let directory: String
    /// Bytes of whole, valid batches: where the next batch is written.
    var size: Int64
    /// The file's length: at least `size`; beyond it, zeros written ahead of the appends of the
    /// active segment (preallocation), cut away when the segment is flushed or sealed.
    var allocated: Int64
    /// One past the segment's last offset.
    var nextOffset: Int64
    /// The first batch's first timestamp; nil while the segment is empty.
    var firstTimestamp: Int64?
    /// The offset and time indexes, kept as batches are appended or scanned.
    var indexer: SegmentIndexer
    /// Whether the `.index` and `.timeindex` files on disk describe the segment exactly as it is:
    /// a seal wrote them, or an open found them written for these batches (`adoptIndexFiles()`),
    /// and nothing was appended or cut since. A close has nothing to write for such a segment.
    var indexFilesCurrent = false

    init(
        baseOffset: Int64, file: OpenFile, directory: String, size: Int64, allocated: Int64, nextOffset: Int64,
        firstTimestamp: Int64?, indexer: SegmentIndexer
    ) {
        self.baseOffset = baseOffset
        self.file = file
        self.directory = directory
        self.size = size
        self.allocated = allocated
        self.nextOffset = nextOffset
        self.firstTimestamp = firstTimestamp
        self.indexer = indexer
    }

    var path: String { file.path }

    /// The largest record timestamp in the segment, -1 while it has none (Kafka's NO_TIMESTAMP).
    var maxTimestamp: Int64 { indexer.maxTimestamp }

    /// The segment as the public API shows it.
    var info: SegmentInfo { SegmentInfo(path: path, baseOffset: baseOffset, nextOffset: nextOffset, size: size) }

    /// The durable-end mark that holds once the segment's file is synced as it is now.
    var end: DurableEnd { DurableEnd(segmentBase: baseOffset, position: size, nextOffset: nextOffset) }

    /// The path of a segment file of a partition directory: the base offset, then `suffix`.
    static func path(directory: String, baseOffset: Int64, suffix: String = SegmentName.logSuffix) -> String {
        FileSystem.join(directory, SegmentName.stem(baseOffset) + suffix)
    }

    /// The path of a sibling file: the same base offset with another suffix.
    func siblingPath(_ suffix: String) -> String {
        Self.path(directory: directory, baseOffset: baseOffset, suffix: suffix)
    }

    /// Creates an empty segment file (0600) and makes its directory entry durable.
    static func create(directory: String, baseOffset: Int64, indexIntervalBytes: Int) throws -> LogSegment {
        let file = try OpenFile(path: path(directory: directory, baseOffset: baseOffset), writable: true, create: true, exclusive: true)
        try FileSystem.syncDirectory(directory)
        let segment = LogSegment(
            baseOffset: baseOffset, file: file, directory: directory, size: 0, allocated: 0, nextOffset: baseOffset,
            firstTimestamp: nil, indexer: SegmentIndexer(baseOffset: baseOffset, intervalBytes: indexIntervalBytes))
        segment.checkInvariants()
        return segment
    }

    /// Opens a sealed segment below the recovery point: trusted as synced, its indexes loaded
    /// from their files when they pass the sanity checks. Nil when an index is missing or
    /// inconsistent (the caller recovers the segment instead, rebuilding them).
    static func openSealed(
        file: OpenFile, directory: String, baseOffset: Int64, nextOffset: Int64, indexIntervalBytes: Int
    ) throws -> LogSegment? {
        let size = try file.size()
        let indexPath = path(directory: directory, baseOffset: baseOffset, suffix: SegmentName.indexSuffix)
        let timePath = path(directory: directory, baseOffset: baseOffset, suffix: SegmentName.timeIndexSuffix)
        guard FileSystem.exists(indexPath), FileSystem.exists(timePath),
            let offsetIndex = OffsetIndex(
                parsing: try FileSystem.readAll(indexPath), segmentSize: size, offsetSpan: nextOffset - baseOffset),
            let timeIndex = TimeIndex(parsing: try FileSystem.readAll(timePath), offsetSpan: nextOffset - baseOffset),
            // A sealed segment with batches always has a closing time-index entry.
            size == 0 || !timeIndex.entries.isEmpty
        else { return nil }
        // Its end is the next segment's base only if its last batch says so: a segment file
        // missing after it would otherwise go unnoticed, its offsets read as never written.
        let end = size == 0 ? baseOffset : try lastBatchEnd(of: file, size: size, from: offsetIndex.entries.last.map { Int64($0.position) } ?? 0)
        guard end == nextOffset else { return nil }
        let first = try file.read(at: 0, count: RecordBatchHeader.size)
        let firstTimestamp = first.withUnsafeBytes { RecordBatchHeader(parsing: $0)?.firstTimestamp }
        var segment = LogSegment(
            baseOffset: baseOffset, file: file, directory: directory, size: size, allocated: size, nextOffset: nextOffset,
            firstTimestamp: firstTimestamp,
            indexer: SegmentIndexer(
                baseOffset: baseOffset, intervalBytes: indexIntervalBytes, offsetIndex: offsetIndex, timeIndex: timeIndex))
        segment.indexFilesCurrent = true
        segment.checkInvariants()
        return segment
    }

    /// One past the last offset of a sealed segment's last batch, found by walking the batch
    /// headers from `position` (a batch boundary: an offset-index entry's) to the file's end —
    /// about one index interval, one read per batch; nil when a header does not parse or the
    /// batches do not end at the file's end (the caller then recovers the segment by a scan).
    /// Every sealed segment's last batch reaches the next segment's base (a roll ends a segment
    /// on a batch; compaction's batches span the offsets they removed, FORMAT.md §13 rule 3).
    private static func lastBatchEnd(of file: OpenFile, size: Int64, from position: Int64) throws -> Int64? {
        var position = position
        var end: Int64?
        while position < size {
            guard size - position >= Int64(RecordBatchHeader.size) else { return nil }
            let bytes = try file.read(at: position, count: RecordBatchHeader.size)
            guard let header = bytes.withUnsafeBytes({ RecordBatchHeader(parsing: $0) }), header.batchLength > 0 else { return nil }
            end = header.lastOffset + 1
            position += Int64(header.totalSize)
        }
        return position == size ? end : nil
    }
}
