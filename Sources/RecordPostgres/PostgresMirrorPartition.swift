import Foundation
import Dispatch
import RecordLog
import StorageKit

/// One zone of a PostgreSQL-backed database as a node serves it: a segment-file partition (the
/// node's **mirror**, read locally and synchronously) in front of the zone's rows in PostgreSQL
/// (the truth every node shares).
///
/// An append is written to the mirror at once, under the caller's lock, and is durable once
/// PostgreSQL has taken it through the fence, in the order the appends were made: one sender
/// per zone sends them in groups — all that queued while the previous group was on its way, in
/// one statement — so that concurrent commits share PostgreSQL's round trip and commit as they
/// share a segment file's fdatasync. The first refusal — another node appended first
/// (`LogError.fenced`) or PostgreSQL failed mid-append (`LogError.sharedLogUnavailable`) —
/// **poisons** the partition: every append waiting behind it and every later one fails the
/// same way, because the node's state holds a commit PostgreSQL may not have. The owner then
/// abandons the database and opens it again from the rows (``PostgresMirrorLog/open(directory:remote:logger:)``).
///
/// Reads go to the mirror: they see the node's own appends at once, as a segment file's reader
/// does, and the other nodes' once ``PostgresMirrorLog/refresh()`` has installed them.
package final class PostgresMirrorPartition: LogPartition {
    /// An append written to the mirror, waiting for its group to go to PostgreSQL.
    private struct Queued: Sendable {
        var batch: EncodedBatch
        var offsets: Range<Int64>
        var ticket: AppendTicket
    }

    private struct Chain: Sendable {
        /// Appends written to the mirror and not yet sent, in offset order.
        var queue: [Queued] = []
        /// Whether the sender is running (it stops when the queue is empty).
        var sending = false
        /// The ticket of the last append made, which ``settle()`` waits for.
        var last: AppendTicket?
        /// A step the first group waits for (the deletion of the zone's previous generation).
        var after: Task<Void, any Error>?
        /// The zone's generation in PostgreSQL (``PostgresLog/Head/generation``); a random one
        /// of this node's until the head exists.
        var generation: Int64
        /// Every offset below this is in PostgreSQL as the mirror has it.
        var confirmedEnd: Int64
        /// Whether the zone's head row exists (created by the first append otherwise).
        var headExists: Bool
        /// The first refusal: every append from then on fails with it.
        var failure: LogError?
        /// Bytes this node appended in small batches since its last compaction of the zone's rows.
        var smallBatchBytes: Int64 = 0
    }

    /// The mirror's segment files.
    let file: Partition
    private let remote: PostgresLog
    private let compression: CompressionCodec
    /// How old a commit must be before a background compaction replaces its row.
    private let compactionLag: Duration
    private let chain: LockedValue<Chain>

    /// - Parameter after: a step this partition's first append waits for (the deletion of the
    ///   zone's previous generation).
    init(
        file: Partition, remote: PostgresLog, compression: CompressionCodec, compactionLag: Duration, generation: Int64, confirmedEnd: Int64,
        headExists: Bool, after: Task<Void, any Error>? = nil
    ) {
        self.file = file
        self.remote = remote
        self.compression = compression
        self.compactionLag = compactionLag
        chain = LockedValue(Chain(after: after, generation: generation, confirmedEnd: confirmedEnd, headExists: headExists))
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
        _ = try? await chain.withLock({ $0.last })?.wait()
    }

    /// What this node appended in small batches since it last compacted the zone's rows. The
    /// zone's size does not count (its total is 0): an incremental compaction rewrites only the
    /// rows since the last one, whatever lies below.
    package var smallBatches: SmallBatches { SmallBatches(bytes: chain.withLock { $0.smallBatchBytes }) }

    /// Re-batches the zone's rows since its last compaction (``PostgresCompaction``,
    /// incremental): small commits merged, versions replaced among them removed, deletes kept.
    /// Rows of commits younger than the partition's compaction lag are left for the next time.
    /// The mirror's own files are not rewritten.
    ///
    /// Blocking, as the protocol's compaction is: it waits for PostgreSQL on the calling thread,
    /// which must not be one of Swift concurrency's (the database's compaction queue calls it).
    ///
    /// - Throws: `LogError.sharedLogUnavailable` for PostgreSQL's failures, a refusal (another
    ///   node's compaction first) among them; nothing changed then.
    package func compact(_ options: CompactionOptions) throws -> CompactionReport {
        chain.withLock { $0.smallBatchBytes = 0 }
        let outcome = LockedValue<Result<CompactionReport?, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let (remote, name, lag) = (remote, name, compactionLag)
        Task {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-compaction-\(UUID().uuidString)").path
            do {
                let report = try await PostgresCompaction.compact(
                    remote, zone: name, incremental: true, minimumLag: lag, scratch: scratch, logger: remote.logger)
                outcome.withLock { $0 = .success(report) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let report)?: return report ?? CompactionReport(partition: name)
        case .failure(let error)?: throw Self.refusal(error, zone: name, at: 0)
        case nil: return CompactionReport(partition: name)
        }
    }

    package func append(_ batch: RecordBatchBuilder) async throws -> Range<Int64> {
        let pending = try appendWithoutWaiting(try batch.encode(compression: compression))
        try await pending.durable()
        return pending.offsets
    }

    package func appendWithoutWaiting(_ batch: EncodedBatch) throws -> PendingAppend {
        let (pending, ticket, startSender) = try chain.withLock { chain in
            if let failure = chain.failure { throw failure }
            let pending = try file.appendWithoutWaiting(batch)
            if batch.bytes.count < SmallBatches.batchBytes { chain.smallBatchBytes += Int64(batch.bytes.count) }
            let ticket = AppendTicket()
            chain.queue.append(Queued(batch: batch, offsets: pending.offsets, ticket: ticket))
            chain.last = ticket
            defer { chain.sending = true }
            return (pending, ticket, !chain.sending)
        }
        if startSender { Task { await send() } }
        return pending.then(Task { try await ticket.wait() })
    }

    /// The most appends one group sends: a group is one statement, so a large one only delays
    /// the first append's answer.
    static let maximumGroupBytes = 4 << 20

    /// Sends the queued appends to PostgreSQL, a group at a time — every append queued while
    /// the group before was on its way goes in the next one, as one fenced statement
    /// (``PostgresLog/append(group:to:at:generation:)``) — until the queue is empty. A refusal
    /// settles every queued append with it: each was planned after the refused one.
    private func send() async {
        if let after = chain.withLock({ $0.after }) {
            do { try await after.value } catch { return fail(Self.refusal(error, zone: name, at: 0)) }
            chain.withLock { $0.after = nil }
        }
        while let (group, createHead, generation) = nextGroup() {
            let first = group[0].offsets.lowerBound
            do {
                if createHead { try await remote.createZone(name, generation: generation) }
                _ = try await remote.append(group: group.map(\.batch), to: name, at: first, generation: generation)
            } catch {
                return fail(Self.refusal(error, zone: name, at: first), group: group)
            }
            chain.withLock { $0.confirmedEnd = max($0.confirmedEnd, group[group.count - 1].offsets.upperBound) }
            for queued in group { queued.ticket.settle(.success(())) }
        }
    }

    /// Takes the next group off the queue; nil (and the sender stops) when it is empty.
    private func nextGroup() -> (group: [Queued], createHead: Bool, generation: Int64)? {
        chain.withLock { chain in
            guard chain.failure == nil, !chain.queue.isEmpty else {
                chain.sending = false
                return nil
            }
            var bytes = 0
            var count = 0
            for queued in chain.queue {
                bytes += queued.batch.bytes.count
                if count > 0, bytes > Self.maximumGroupBytes { break }
                count += 1
            }
            let group = Array(chain.queue.prefix(count))
            chain.queue.removeFirst(count)
            let createHead = !chain.headExists
            chain.headExists = true
            return (group, createHead, chain.generation)
        }
    }

    /// Poisons the partition with `failure` and settles `group` and everything queued with it.
    private func fail(_ failure: LogError, group: [Queued] = []) {
        let refused = chain.withLock { chain in
            chain.failure = chain.failure ?? failure
            chain.sending = false
            defer { chain.queue = [] }
            return group + chain.queue
        }
        for queued in refused { queued.ticket.settle(.failure(failure)) }
    }

    /// Writes batches another node stored (read from PostgreSQL by a pull) into the mirror, in
    /// order, when they start exactly at its end and nothing of this node's is in flight;
    /// returns whether any was written. A batch that starts below the mirror's end and reaches
    /// past it (rows a compaction replaced) poisons the partition: the mirror is opened again. Called under the database's lock, in order with its
    /// own appends.
    func install(_ batches: [RecordBatch]) throws -> Bool {
        try chain.withLock { chain in
            guard chain.failure == nil, chain.confirmedEnd == file.endOffset else { return false }
            var installed = false
            for batch in batches where batch.header.lastOffset >= file.endOffset {
                if batch.header.baseOffset < file.endOffset {
                    // A compaction replaced the rows around this mirror's end (FORMAT.md
                    // §14.5): it cannot continue in place; opened again, it fetches the zone anew.
                    chain.failure = chain.failure
                        ?? .sharedLogUnavailable(
                            reason: "zone \(name) was compacted through \(batch.header.lastOffset + 1), past this mirror's end at \(file.endOffset)")
                    return installed
                }
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
