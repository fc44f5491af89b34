/// A batch written to its segment but perhaps not yet on disk.
public struct PendingAppend: Sendable {
    /// The offsets the batch was given.
    public let offsets: Range<Int64>
    let sequence: UInt64
    let committer: GroupCommitter?

    /// Returns once the batch is durable (at once with `.noSyncUnsafe` durability).
    /// Appends waiting at the same time share one fdatasync.
    public func durable() async throws {
        try await committer?.waitDurable(sequence)
    }
}
