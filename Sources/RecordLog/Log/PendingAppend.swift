/// A batch written to its segment but perhaps not yet on disk.
public struct PendingAppend: Sendable {
    /// The offsets the batch was given.
    public let offsets: Range<Int64>
    let sequence: UInt64
    let committer: GroupCommitter?
    /// A shared log's own step after the local one: the batch stored where every writer of the
    /// log stores it (a PostgreSQL row), or refused there (``LogError/fenced(partition:expectedEnd:actualEnd:)``).
    let shared: Task<Void, any Error>?

    init(offsets: Range<Int64>, sequence: UInt64, committer: GroupCommitter?, shared: Task<Void, any Error>? = nil) {
        self.offsets = offsets
        self.sequence = sequence
        self.committer = committer
        self.shared = shared
    }

    /// This append, durable only once `shared` has also succeeded: how a partition of a shared
    /// log (a local mirror in front of a replicated store) makes its writes durable.
    package func then(_ shared: Task<Void, any Error>) -> PendingAppend {
        PendingAppend(offsets: offsets, sequence: sequence, committer: committer, shared: shared)
    }

    /// Starts making the batch durable on a background thread and returns at once: a writer
    /// with work to do before it waits in ``durable()`` (applying a large commit to its state)
    /// overlaps that work with the fdatasync instead of paying for both in turn. A writer with
    /// nothing to do in between gains nothing: ``durable()`` starts the same sync. Does nothing
    /// with `.noSyncUnsafe` durability.
    package func startDurable() {
        committer?.syncSoon()
    }

    /// Returns once the batch is durable (at once with `.noSyncUnsafe` durability; for a shared
    /// log, once the shared store has it). Appends waiting at the same time share one fdatasync.
    ///
    /// - Throws: `LogError` — `fenced` when a shared log refused the batch.
    public func durable() async throws {
        try await LogError.translating {
            try await committer?.waitDurable(sequence)
            try await shared?.value
        }
    }
}
