import RecordLog
import StorageKit

/// One zone of a PostgreSQL-backed database as a node serves it: a segment-file partition (the
/// node's **mirror**, read locally and synchronously) in front of the zone's rows in PostgreSQL
/// (the truth every node shares).
///
/// An append is written to the mirror at once, under the caller's lock, and is durable once
/// PostgreSQL has taken it through the fence (``PostgresLog/append(_:to:at:generation:)``), in
/// the order the appends were made: each append's PostgreSQL step waits for the one before it,
/// since it was planned at that one's end. The first refusal — another node appended first
/// (`LogError.fenced`) or PostgreSQL failed mid-append (`LogError.sharedLogUnavailable`) —
/// **poisons** the partition: every append waiting behind it and every later one fails the
/// same way, because the node's state holds a commit PostgreSQL may not have. The owner then
/// abandons the database and opens it again from the rows (``PostgresMirrorLog/open(directory:remote:logger:)``).
///
/// Reads go to the mirror: they see the node's own appends at once, as a segment file's reader
/// does, and the other nodes' once ``PostgresMirrorLog/refresh()`` has installed them.
package final class PostgresMirrorPartition: LogPartition {
    private struct Chain: Sendable {
        /// The PostgreSQL step of the last append (or of the zone's deletion before it was
        /// created again), which the next one waits for.
        var tail: Task<Void, any Error>?
        /// The zone's generation in PostgreSQL (``PostgresLog/Head/generation``); a random one
        /// of this node's until the head exists.
        var generation: Int64
        /// Every offset below this is in PostgreSQL as the mirror has it.
        var confirmedEnd: Int64
        /// Whether the zone's head row exists (created by the first append otherwise).
        var headExists: Bool
        /// The first refusal: every append from then on fails with it.
        var failure: LogError?
    }

    /// The mirror's segment files.
    let file: Partition
    private let remote: PostgresLog
    private let compression: CompressionCodec
    private let chain: LockedValue<Chain>

    /// - Parameter after: a step this partition's first append waits for (the deletion of the
    ///   zone's previous generation).
    init(
        file: Partition, remote: PostgresLog, compression: CompressionCodec, generation: Int64, confirmedEnd: Int64, headExists: Bool,
        after: Task<Void, any Error>? = nil
    ) {
        self.file = file
        self.remote = remote
        self.compression = compression
        chain = LockedValue(Chain(tail: after, generation: generation, confirmedEnd: confirmedEnd, headExists: headExists))
    }

    /// The zone's generation, as PostgreSQL's head has it (once it exists).
    var generation: Int64 { chain.withLock { $0.generation } }

    /// Whether the head row is known to exist (or is being created by an append in flight).
    var headExists: Bool { chain.withLock { $0.headExists } }

    /// Takes the generation of a head another node created for this zone, when this node has
    /// written nothing to it yet; returns whether the partition is now of `generation`.
    func adopt(generation: Int64) -> Bool {
        chain.withLock { chain in
            if chain.generation == generation { return true }
            guard !chain.headExists, chain.failure == nil, file.endOffset == 0 else { return false }
            chain.generation = generation
            chain.headExists = true
            return true
        }
    }

    package var name: String { file.name }
    package var startOffset: Int64 { file.startOffset }
    package var endOffset: Int64 { file.endOffset }
    package var expiryOffset: Int64 { file.expiryOffset }
    package var dropSequence: Int64 { file.dropSequence }
    package var dirtyRatio: Double { 0 }

    /// Every offset below this is in PostgreSQL as the mirror holds it.
    var confirmedEnd: Int64 { chain.withLock { $0.confirmedEnd } }

    /// The refusal that poisoned the partition, if one did.
    var failure: LogError? { chain.withLock { $0.failure } }

    /// Whether every append has been confirmed (nothing in flight, nothing refused).
    var isSettled: Bool {
        chain.withLock { $0.failure == nil && $0.confirmedEnd == file.endOffset }
    }

    /// Waits until the PostgreSQL step of every append made so far has finished, either way.
    func settle() async {
        _ = try? await chain.withLock({ $0.tail })?.value
    }

    /// Not yet on PostgreSQL: the rows would have to be cleaned and swapped under the fence.
    package func compact(_ options: CompactionOptions) throws -> CompactionReport {
        throw LogError.sharedLogUnavailable(
            reason: "compaction of a PostgreSQL-backed zone is not supported yet; its rows are kept whole")
    }

    package func append(_ batch: RecordBatchBuilder) async throws -> Range<Int64> {
        let pending = try appendWithoutWaiting(try batch.encode(compression: compression))
        try await pending.durable()
        return pending.offsets
    }

    package func appendWithoutWaiting(_ batch: EncodedBatch) throws -> PendingAppend {
        try chain.withLock { chain in
            if let failure = chain.failure { throw failure }
            let pending = try file.appendWithoutWaiting(batch)
            let previous = chain.tail
            let createHead = !chain.headExists
            chain.headExists = true
            let (remote, zone, generation, state) = (self.remote, name, chain.generation, self.chain)
            let offsets = pending.offsets
            let step = Task {
                // Planned at the previous append's end: if that one was refused, so is this.
                try await previous?.value
                do {
                    if createHead { try await remote.createZone(zone, generation: generation) }
                    _ = try await remote.append(batch, to: zone, at: offsets.lowerBound, generation: generation)
                    state.withLock { $0.confirmedEnd = max($0.confirmedEnd, offsets.upperBound) }
                } catch {
                    let failure = Self.refusal(error, zone: zone, at: offsets.lowerBound)
                    state.withLock { $0.failure = $0.failure ?? failure }
                    throw failure
                }
            }
            chain.tail = step
            return pending.then(step)
        }
    }

    /// Writes batches another node stored (read from PostgreSQL by a pull) into the mirror, in
    /// order, when they start exactly at its end and nothing of this node's is in flight;
    /// returns whether any was written. Called under the database's lock, in order with its
    /// own appends.
    func install(_ batches: [RecordBatch]) throws -> Bool {
        try chain.withLock { chain in
            guard chain.failure == nil, chain.confirmedEnd == file.endOffset else { return false }
            var installed = false
            for batch in batches where batch.header.lastOffset >= file.endOffset {
                guard batch.header.baseOffset == file.endOffset else { break }
                let pending = try file.appendWithoutWaiting(EncodedBatch(stored: batch))
                chain.confirmedEnd = pending.offsets.upperBound
                chain.headExists = true
                installed = true
            }
            return installed
        }
    }

    /// The log's error for a PostgreSQL step that failed.
    static func refusal(_ error: any Error, zone: String, at offset: Int64) -> LogError {
        switch error {
        case let error as LogError:
            return error
        case let error as PostgresLogError:
            if case .fenced(let expected, let actual) = error.kind {
                return .fenced(partition: zone, expectedEnd: expected, actualEnd: actual)
            }
            return .sharedLogUnavailable(reason: error.description)
        default:
            return .sharedLogUnavailable(reason: "storing the batch at offset \(offset) of zone \(zone) failed: \(String(reflecting: error))")
        }
    }

    package func batches(from offset: Int64, maxBytes: Int) throws -> [RecordBatch] {
        try file.batches(from: offset, maxBytes: maxBytes)
    }

    package func records(from: Int64, to: Int64?, limit: Int) throws -> [LogRecord] {
        try file.records(from: from, to: to, limit: limit)
    }

    package func forEachRecord(from: Int64, to: Int64?, _ body: (LogRecord) throws -> Bool) throws {
        try file.forEachRecord(from: from, to: to, body)
    }

    package func forEachRecordInPlace(from: Int64, to: Int64?, cached: Bool, _ body: (BorrowedLogRecord) throws -> Bool) throws {
        try file.forEachRecordInPlace(from: from, to: to, cached: cached, body)
    }

    package func forEachRecordInPlace<Check: CachedRecordCheck>(
        from: Int64, to: Int64?, cachedWith check: Check.Type,
        _ body: (BorrowedLogRecord, _ passed: Bool, _ keeper: AnyObject?) throws -> Bool
    ) throws {
        try file.forEachRecordInPlace(from: from, to: to, cachedWith: check, body)
    }
}
