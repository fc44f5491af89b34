/// How a log writes, rolls and checks its files.
public struct LogOptions: Sendable {
    /// When an append returns.
    public enum Durability: Sendable, Equatable {
        /// After the batch is on disk (fdatasync); concurrent appends share one sync (group commit).
        case fsync
        /// As soon as the bytes are handed to the kernel: fast and NOT crash-safe. For bulk loads
        /// that can be redone and for tests; `Log.sync()` makes everything so far durable.
        case noSyncUnsafe
    }

    package static let defaultMaxBatchBytes = 64 << 20
    package static let defaultMaxDecompressedBytes = 256 << 20

    /// Open without taking the write lock, repair nothing and refuse writes (for tools).
    public var readOnly = false
    public var durability: Durability = .fsync
    /// A segment rolls when the next batch would grow it past this size (at most 1 GiB).
    public var segmentBytes = 64 << 20
    /// One offset-index entry per this many bytes of log (Kafka's `index.interval.bytes`).
    public var indexIntervalBytes = 4096
    /// The largest batch accepted, written or read.
    public var maxBatchBytes = defaultMaxBatchBytes
    /// The most bytes one batch's records may decompress to.
    public var maxDecompressedBytes = defaultMaxDecompressedBytes
    /// Zeros written ahead of the active segment's appends, this many bytes at a time (0: none).
    /// An fdatasync after an append that does not grow the file flushes no file-size change, which
    /// makes small durable commits markedly faster (BENCHMARKS.md); the zeros are cut when the
    /// segment is sealed or the log closed, and after a crash recovery trims them (they are not a
    /// torn write).
    public var preallocationBytes = 1 << 20
    /// The most bytes of decompressed batches the log keeps for reads that ask for it and come
    /// again (change fetches read the log's tail, often more than once), counting each batch's
    /// records and where each record lies (40 bytes a record); 0 keeps none. RecordStore's
    /// change fetches read through it.
    public var batchCacheBytes = 32 << 20
    /// The codec of written batches (reading accepts both).
    public var compression: CompressionCodec = .lz4
    /// A segment rolls before its offsets would span more than this: relative offsets in the
    /// index files are int32. Lowered only by tests, to reach the rule without 2³¹ records.
    var maxOffsetsPerSegment = Int64(Int32.max)

    public init(
        readOnly: Bool = false, durability: Durability = .fsync, segmentBytes: Int = 64 << 20,
        indexIntervalBytes: Int = 4096
    ) {
        self.readOnly = readOnly
        self.durability = durability
        self.segmentBytes = segmentBytes
        self.indexIntervalBytes = indexIntervalBytes
    }

    /// The segment size actually used: between one batch and 1 GiB, so positions fit Int32.
    var effectiveSegmentBytes: Int { min(max(segmentBytes, 1024), 1 << 30) }
}
