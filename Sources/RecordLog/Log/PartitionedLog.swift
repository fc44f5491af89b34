/// A set of named partitions as RecordStore uses it: one store's zones and its system partition.
///
/// ``Log`` keeps them as directories of segment files under one lock; ``MemoryLog`` keeps them in
/// memory. See ``LogPartition`` for the contract every partition keeps.
package protocol PartitionedLog: AnyObject, Sendable {
    /// The kind of partition this log holds.
    associatedtype Member: LogPartition

    /// How batches are written and read: the store encodes its commits with these.
    var options: LogOptions { get }
    /// The names of the partitions, sorted.
    var partitionNames: [String] { get }
    /// How many group syncs have run since the log was opened (0 for a log that never syncs).
    var syncCount: Int { get }

    /// An existing partition.
    ///
    /// - Throws: `LogError.partitionNotFound`.
    func partition(named name: String) throws -> Member

    /// The partition named `name`, created (durably) when it does not exist yet.
    ///
    /// - Throws: `LogError.invalidPartitionName`, `LogError.partitionDirectoryConflict` for a name
    ///   that clashes with another's, `LogError.closed`.
    @discardableResult
    func createPartition(named name: String) throws -> Member

    /// Removes a partition and all its records, durably; appends to it then throw `LogError.closed`.
    ///
    /// - Throws: `LogError.partitionNotFound`.
    func deletePartition(named name: String) throws

    /// Makes every append so far durable.
    func sync() throws

    /// Catches a read-only view up with what its writer (another process) has made durable since;
    /// returns whether anything changed. A log that is its own writer returns false.
    @discardableResult
    func refresh() throws -> Bool

    /// Whether a read-only view's writer has published durable batches it has not read yet, or
    /// created or removed a partition: the cheap look (one small read per partition, one listing)
    /// that tells whether `refresh()` would find anything. Always false for a log that is its
    /// own writer.
    func hasNewDurableData() -> Bool

    /// Closes every partition: later appends throw `LogError.closed`.
    func close() throws

    /// Whether other writers append to this log too — a cluster's log, shared through a
    /// replicated store, of which this process keeps a mirror. A shared log's appends may be
    /// refused (`LogError.fenced`), and its writer catches up with the others by ``pull()``
    /// and ``refresh()``, as a read-only view catches up with its writer.
    var isShared: Bool { get }

    /// Fetches what the log's other writers have stored since the last look, for the next
    /// ``refresh()`` to install (under the caller's lock, in order with its own appends). A
    /// log with no other writer has nothing to fetch.
    func pull() async throws
}

extension PartitionedLog {
    /// A log whose only writer is this process (a store directory, memory).
    package var isShared: Bool { false }

    package func pull() async throws {}
}
