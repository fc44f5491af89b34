import Logging
import StorageKit
import Synchronization

/// One partition: ordered segments of Kafka v2 record batches with dense offsets from 0.
///
/// Appends are serialized by the partition; reads take a snapshot of the segments and run
/// without blocking appends. Get one from `Log.partition(named:)` or `Log.createPartition(named:)`.
///
/// ```swift
/// let notes = try log.createPartition(named: "Notes")
/// var batch = RecordBatchBuilder()
/// batch.append(key: "n1", value: Array("hi".utf8))
/// let offsets = try await notes.append(batch)     // 0..<1, durable when it returns
/// for record in try notes.records(from: 0) { print(record.offset, record.keyString ?? "") }
/// ```
public final class Partition: Sendable {
    struct State: Sendable {
        var segments: [LogSegment]
        /// Offsets below this are durable and indexed on disk.
        var recoveryPoint: Int64
        /// What compaction has done: the log start, the cleaned range, the expiry offset, the
        /// drop sequence. A writer's is its checkpoint file's. A reader's is what it holds: the
        /// file as read after its segments, with an odd drop sequence when the file's changed
        /// while it loaded them (they may mix two compactions' segments; ``catchUp()`` opens the
        /// partition again).
        var cleaner: CleanerCheckpoint
        var closed = false
        /// The number of this partition's batches in the log's cache: a compaction takes a new
        /// one, since the batches at an offset changed.
        var cacheNumber = BatchCache.partitionNumber()
        /// Bytes appended in small batches since the open or the last roll for a compaction
        /// (``SmallBatches``).
        var smallBatchBytes: Int64 = 0
    }

    /// The partition's name (`zone.name` in its directory).
    public let name: String
    /// The partition's directory.
    public let directory: String
    let options: LogOptions
    let committer: GroupCommitter
    /// The log's cache of decompressed batches, and this partition's number in its keys.
    let batchCache: BatchCache
    let logger: Logger
    let state: LockedValue<State>
    /// Keeps the store's write lock held while this partition can still be written.
    let storeLock: StoreLock?
    /// Where the writer publishes how far the partition is durable; nil when read-only.
    let durableEnd: DurableEndFile?

    /// Held for the whole of a compaction: one at a time, and `close()` waits for it.
    let compacting = LockedValue(())
    /// Set by `close()` before it waits for a compaction, which then stops at its next step.
    let closing = Atomic<Bool>(false)

    init(
        name: String, directory: String, segments: [LogSegment], recoveryPoint: Int64, cleaner: CleanerCheckpoint = CleanerCheckpoint(),
        options: LogOptions,
        committer: GroupCommitter, batchCache: BatchCache, storeLock: StoreLock?, durableEnd: DurableEndFile?, logger: Logger
    ) {
        self.durableEnd = durableEnd
        self.batchCache = batchCache
        self.storeLock = storeLock
        self.name = name
        self.directory = directory
        self.options = options
        self.committer = committer
        self.logger = logger
        self.state = LockedValue(State(segments: segments, recoveryPoint: recoveryPoint, cleaner: cleaner))
    }

    /// The first offset still in the log (0 until compaction removes segments).
    public var startOffset: Int64 { state.withLock { $0.segments.first?.baseOffset ?? $0.cleaner.logStartOffset } }

    /// The **expiry offset**: compaction dropped deletes (tombstones) below it, never at or above
    /// it. A reader that has read every offset below some position P, with P at or above it,
    /// learns every change since P from the log, deletes included; one below it may have missed
    /// a delete (FORMAT.md §13.3). 0 until a compaction drops a tombstone.
    public var expiryOffset: Int64 { state.withLock { $0.cleaner.expiryOffset } }

    /// Where the records this partition serves stand among the compactions that dropped deletes
    /// (FORMAT.md §11.1): even and unchanged between two reads means no delete was dropped from
    /// them in between; odd while such a compaction is under way (or, in a reader, while what it
    /// holds may mix segments from before and after one). A change token is stamped with it.
    package var dropSequence: Int64 { state.withLock { $0.cleaner.dropSequence } }

    /// The next offset to be written: one past the last record.
    public var endOffset: Int64 { state.withLock { $0.segments.last?.nextOffset ?? 0 } }

    /// The first record batch's first timestamp, nil for an empty partition.
    package var firstTimestamp: Int64? { state.withLock { $0.segments.lazy.compactMap(\.firstTimestamp).first } }

    /// The largest record timestamp, nil for an empty partition.
    package var lastTimestamp: Int64? {
        state.withLock { state in
            let stamps = state.segments.map(\.maxTimestamp).filter { $0 >= 0 }
            return stamps.max()
        }
    }

    /// The segments, oldest first.
    package var segments: [SegmentInfo] {
        state.withLock { $0.segments.map(\.info) }
    }

    var recoveryPoint: Int64 { state.withLock { $0.recoveryPoint } }

    /// Encodes and appends `batch` as one atomic commit; returns the offsets it was given.
    ///
    /// With `.fsync` durability (the default) it returns once the batch is on disk.
    public func append(_ batch: RecordBatchBuilder) async throws -> Range<Int64> {
        return try await LogError.translating {
            try await append(batch.encode(compression: options.compression))
        }
    }

    /// Appends an encoded batch as one atomic commit; returns the offsets it was given.
    public func append(_ batch: EncodedBatch) async throws -> Range<Int64> {
        return try await LogError.translating {
            let pending = try appendWithoutWaiting(batch)
            try await pending.durable()
            return pending.offsets
        }
    }

    /// Writes the batch now and returns before it is durable: for callers that must order the
    /// write with their own state under a lock, then wait for durability outside it.
    ///
    /// ```swift
    /// let pending = try state.withLock { _ in try partition.appendWithoutWaiting(batch) }
    /// try await pending.durable()   // now it survives a crash
    /// ```
    public func appendWithoutWaiting(_ batch: EncodedBatch) throws -> PendingAppend {
        return try LogError.translating {
            let (offsets, sequence, rolled) = try write(batch)
            if rolled { onRoll() }
            return PendingAppend(offsets: offsets, sequence: sequence, committer: options.durability == .fsync ? committer : nil)
        }
    }

    /// Called after a segment rolled, outside the partition's lock (the log saves its checkpoint).
    let onRollHandler = LockedValue<(@Sendable () -> Void)?>(nil)

    func onRoll() {
        if let handler = onRollHandler.withLock({ $0 }) { handler() }
    }

    /// Writes the batch at the end of the active segment, rolling first when it is full.
    private func write(_ batch: EncodedBatch) throws -> (Range<Int64>, UInt64, Bool) {
        guard !options.readOnly else { throw LogError.readOnly }
        if let failure = committer.failure { throw failure }
        guard batch.bytes.count <= options.maxBatchBytes else {
            throw LogError.batchTooLarge(bytes: batch.bytes.count, limit: options.maxBatchBytes)
        }
        return try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            var rolled = false
            if let active = state.segments.last, active.size > 0,
                active.size + Int64(batch.bytes.count) > Int64(options.effectiveSegmentBytes)
                    || active.nextOffset + Int64(batch.recordCount) - active.baseOffset > options.maxOffsetsPerSegment
            {
                try roll(&state)
                rolled = true
            }
            guard var active = state.segments.popLast() else { throw LogError.closed }
            defer { state.segments.append(active) }
            let offsets = try active.append(
                batch, preallocationBytes: options.preallocationBytes, segmentBytes: options.effectiveSegmentBytes)
            let sequence = committer.registerWrite(to: active.file, mark: durableEnd, end: active.end)
            if batch.bytes.count < SmallBatches.batchBytes { state.smallBatchBytes += Int64(batch.bytes.count) }
            return (offsets, sequence, rolled)
        }
    }

    /// Seals the active segment and starts a new one at the end offset.
    func roll(_ state: inout State) throws {
        try sealActive(&state)
        guard let last = state.segments.last else { throw LogError.closed }
        let next = try LogSegment.create(directory: directory, baseOffset: last.nextOffset, indexIntervalBytes: options.indexIntervalBytes)
        state.recoveryPoint = last.nextOffset
        state.segments.append(next)
        // The mark moves to the new segment at once: a compaction may take the sealed one into
        // a cleaned segment of another name, and a mark naming a segment that is gone would
        // leave readers in other processes nothing to stop at (FORMAT.md §6.1).
        try publishDurable(next)
        logger.debug("rolled segment", metadata: ["partition": "\(name)", "baseOffset": "\(next.baseOffset)"])
    }

    /// Syncs the active segment and writes its index files, unless nothing changed them since
    /// the open or the last roll; called by `Log.close()`.
    func close() throws {
        // A compaction under way stops at its next step; wait for it, so that no file of the
        // partition changes once the store's lock is released.
        closing.store(true, ordering: .releasing)
        compacting.withLock { _ in }
        try state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            guard !options.readOnly, let active = state.segments.last else { return }
            // Untouched since an open that found it whole below the recovery point: synced,
            // its mark published and its index files written — nothing to do again.
            if active.indexFilesCurrent, state.recoveryPoint >= active.nextOffset { return }
            try sealActive(&state)
            state.recoveryPoint = active.nextOffset
        }
    }

    /// Flushes the active segment (zeros written ahead cut, synced), publishes it as the durable
    /// end and seals it (index files written).
    private func sealActive(_ state: inout State) throws {
        guard var active = state.segments.popLast() else { throw LogError.closed }
        defer { state.segments.append(active) }
        try active.flush()
        try publishDurable(active)
        try active.seal(writingIndexFiles: true)
    }

    /// Publishes a segment that was just synced whole as the durable end, and syncs the mark.
    private func publishDurable(_ segment: LogSegment) throws {
        guard let durableEnd else { return }
        durableEnd.publish(segment.end)
        try durableEnd.sync()
    }
}
