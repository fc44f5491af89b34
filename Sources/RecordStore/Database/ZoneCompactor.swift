import Dispatch
import StorageKit
import Logging
import RecordLog

/// Runs a database's compactions on a serial dispatch queue of their own, never on the
/// cooperative pool: a compaction reads and writes whole segments and blocks while it does
/// (`Database`'s concurrency story). Writers go on meanwhile; each is held up at most while a
/// cleaned segment takes the old ones' place in the partition's list.
final class ZoneCompactor: Sendable {
    let policy: CompactionPolicy
    let logger: Logger
    private let queue = DispatchQueue(label: "RecordStore.compaction", qos: .utility)
    /// Partitions with a background compaction queued or running.
    private let scheduled = LockedValue<Set<ObjectIdentifier>>([])

    init(policy: CompactionPolicy, logger: Logger) {
        self.policy = policy
        self.logger = logger
    }

    /// Queues a background compaction of `partition`, unless the policy is manual or one is
    /// queued for it already, when either
    /// - its dirty ratio has reached the threshold and its log may hold events a compaction
    ///   removes (`mayHoldReplacedEvents`; an insert-only log has none): the active segment is
    ///   left alone; or
    /// - it gathered ``CompactionPolicy/rebatchingBytes`` of small commits, half of its log or
    ///   more: the active segment is rolled first, so that they are all re-batched.
    ///
    /// Cheap when nothing is due: a look at the partition's segments. `droppedDeletes` runs on
    /// the compaction queue after a compaction that dropped deletes.
    func considerCompacting(
        _ partition: any LogPartition, mayHoldReplacedEvents: Bool, droppedDeletes: @escaping @Sendable () -> Void = {}
    ) {
        guard policy.automatic else { return }
        let rebatching = partition.smallBatches.isDue(minimumBytes: policy.rebatchingBytes)
        if !rebatching {
            guard mayHoldReplacedEvents else { return }
            let ratio = partition.dirtyRatio
            guard ratio > 0, ratio >= policy.dirtyRatioThreshold else { return }
        }
        let id = ObjectIdentifier(partition)
        guard scheduled.withLock({ $0.insert(id).inserted }) else { return }
        let options = Self.options(retention: policy.tombstoneRetention, rollingActiveSegment: rebatching)
        queue.async { [self] in
            let compacted = compact(partition, options: options, droppedDeletes: droppedDeletes)
            _ = scheduled.withLock { $0.remove(id) }
            // Commits made while it ran found it scheduled and left it: the segments they rolled
            // may have made the log dirty enough again.
            if compacted { considerCompacting(partition, mayHoldReplacedEvents: mayHoldReplacedEvents, droppedDeletes: droppedDeletes) }
        }
    }

    /// One background compaction, on the queue; whether it finished.
    private func compact(_ partition: any LogPartition, options: CompactionOptions, droppedDeletes: () -> Void) -> Bool {
        do {
            let report = try partition.compact(options)
            logger.debug("background compaction", metadata: ["zone": "\(report.partition)", "reclaimed": "\(report.bytesReclaimed)"])
            if report.tombstonesDropped > 0 { droppedDeletes() }
            return true
        } catch LogError.closed {
            return false  // the database closed meanwhile: the next open finishes what was under way
        } catch {
            logger.warning("background compaction failed", metadata: ["zone": "\(partition.name)", "error": "\(error)"])
            return false
        }
    }

    /// Returns once no background compaction is queued or running, those that finishing ones
    /// started included: for tests, which must not sleep to wait for a background compaction.
    func idle() async {
        repeat {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        } while !scheduled.withLock({ $0.isEmpty })
    }

    /// Compacts `partitions` one after the other on the compaction queue, each rolled first so
    /// that everything written before the call is compacted; resumes the caller when done.
    func compact(_ partitions: [any LogPartition], tombstoneRetention: Duration) async throws -> [CompactionReport] {
        let options = Self.options(retention: tombstoneRetention, rollingActiveSegment: true)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try partitions.map { try $0.compact(options) } })
            }
        }
    }

    /// A zone's compaction options: deletes kept for `retention`, and the event carrying the
    /// zone's latest client change token kept whatever the rules (FORMAT.md §13, rule 6), so
    /// that the token outlives the commit that brought it.
    private static func options(retention: Duration, rollingActiveSegment: Bool) -> CompactionOptions {
        var options = CompactionOptions(
            tombstoneRetentionMilliseconds: CompactionPolicy.milliseconds(retention), rollingActiveSegment: rollingActiveSegment)
        options.keptHeader = StoredEvent.clientChangeTokenHeader
        return options
    }
}
