/// One partition's log as RecordStore uses it: what a zone is stored in.
///
/// RecordStore reaches its partitions through this protocol and ``PartitionedLog``, never through
/// ``Partition`` and ``Log`` themselves, so that what lies under a zone can change without
/// touching the store: today's segment files (``Partition``), memory for tests and previews
/// (``MemoryPartition``), and later a replicated log.
///
/// The seam is drawn at whole batches and whole reads, not at records: a commit crosses it once
/// (``appendWithoutWaiting(_:)``), a read once (the `forEach…` calls take the per-record closure
/// and run their loop on their own side), so an existential costs one indirect call per commit
/// or per read, never per record.
///
/// Every implementation keeps the same contract:
/// - Offsets are dense: a batch of `n` records appended at ``endOffset`` gets `endOffset..<endOffset + n`.
/// - ``appendWithoutWaiting(_:)`` writes now, under the caller's lock, in the order the caller
///   calls it; the returned ``PendingAppend`` is awaited outside that lock:
///   ```swift
///   let pending = try state.withLock { _ in try partition.appendWithoutWaiting(batch) }
///   try await pending.durable()   // now it survives what the implementation survives
///   ```
/// - Reads return the records as ``LogRecord``/``BorrowedLogRecord`` decoded from the same
///   Kafka v2 batch bytes (LZ4 included), and throw ``LogError/offsetOutOfRange(offset:start:end:)``
///   for an offset outside ``startOffset``...``endOffset``.
/// - A batch over ``LogOptions/maxBatchBytes`` is refused (``LogError/batchTooLarge(bytes:limit:)``),
///   and an append after the partition was closed or deleted throws ``LogError/closed``.
///
/// Requirements carry no default arguments (a protocol cannot); callers pass every argument.
package protocol LogPartition: AnyObject, Sendable {
    /// The partition's name (the zone's).
    var name: String { get }
    /// The first offset still held.
    var startOffset: Int64 { get }
    /// The offset the next record appended will get.
    var endOffset: Int64 { get }
    /// Compaction dropped deletes below this offset, never at or above it (FORMAT.md §13.3): a
    /// reader positioned below it may have missed one.
    var expiryOffset: Int64 { get }
    /// A sequence lock over dropped deletes (FORMAT.md §11.1): even and unchanged between two
    /// reads of it means no delete was dropped from what the partition serves in between; odd
    /// while a compaction that drops deletes is under way.
    var dropSequence: Int64 { get }
    /// The share of the partition appended since its last compaction, 0 to 1.
    var dirtyRatio: Double { get }
    /// What was appended in small batches since the partition last rolled for a compaction:
    /// whether re-batching them is due (``SmallBatches``).
    var smallBatches: SmallBatches { get }

    /// Compacts the partition by key (``Partition/compact(_:)``); blocks the calling thread
    /// while it reads and writes.
    func compact(_ options: CompactionOptions) throws -> CompactionReport

    /// Encodes and appends `batch` as one atomic commit, durable when it returns; returns the
    /// offsets it was given.
    func append(_ batch: RecordBatchBuilder) async throws -> Range<Int64>

    /// Writes the batch now and returns before it is durable (see the ordering contract above).
    func appendWithoutWaiting(_ batch: EncodedBatch) throws -> PendingAppend

    /// Whole batches holding the offsets from `offset` on, about `maxBytes` of them (always at
    /// least one batch when any offset at or after `offset` exists).
    func batches(from offset: Int64, maxBytes: Int) throws -> [RecordBatch]

    /// The records in `from..<to` (to the end when `to` is nil), at most `limit` of them.
    func records(from: Int64, to: Int64?, limit: Int) throws -> [LogRecord]

    /// Calls `body` with every record in `from..<to` (to the end when `to` is nil), in offset
    /// order; `body` returns false to stop early.
    func forEachRecord(from: Int64, to: Int64?, _ body: (LogRecord) throws -> Bool) throws

    /// Calls `body` with every record in `from..<to` read in place, in offset order; a borrowed
    /// record is valid only during its call. `cached` asks to read through and fill the log's
    /// batch cache, for reads likely to come again; the records are the same either way.
    func forEachRecordInPlace(from: Int64, to: Int64?, cached: Bool, _ body: (BorrowedLogRecord) throws -> Bool) throws

    /// Reads in place through the log's batch cache, telling `body` whether each record is known
    /// to pass `check` and what keeps its bytes alive (nil: they last only during the call); see
    /// ``CachedRecordCheck``. An implementation without a cache passes false and nil.
    func forEachRecordInPlace<Check: CachedRecordCheck>(
        from: Int64, to: Int64?, cachedWith check: Check.Type,
        _ body: (BorrowedLogRecord, _ passed: Bool, _ keeper: AnyObject?) throws -> Bool
    ) throws
}
