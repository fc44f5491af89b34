/// A batch written to its segment but perhaps not yet on disk.
public struct PendingAppend: Sendable {
    /// The offsets the batch was given.
    public let offsets: Range<Int64>
    let sequence: UInt64
    let committer: GroupCommitter?

    /// Starts making the batch durable on a background thread and returns at once: a writer
    /// with work to do before it waits in ``durable()`` (applying a large commit to its state)
    /// overlaps that work with the fdatasync instead of paying for both in turn. A writer with
    /// nothing to do in between gains nothing: ``durable()`` starts the same sync. Does nothing
    /// with `.noSyncUnsafe` durability.
    package func startDurable() {
        committer?.syncSoon()
    }

    /// Returns once the batch is durable (at once with `.noSyncUnsafe` durability).
    /// Appends waiting at the same time share one fdatasync.
    public func durable() async throws {
        try await LogError.translating {
            try await committer?.waitDurable(sequence)
        }
    }
}
