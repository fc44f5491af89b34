import StorageKit

/// A set of partitions kept in memory: a ``Log`` with no directory, no lock and no files, for
/// tests and previews. Everything is gone when it is released.
///
/// Names follow the same rules as a ``Log``'s (the same names are refused, and two names that
/// would share a directory clash), so code tested against it meets the errors it would meet on
/// disk. Appends are durable at once; ``sync()`` has nothing to do and ``syncCount`` stays 0.
///
/// ```swift
/// let log = MemoryLog()
/// let notes = try log.createPartition(named: "Notes")
/// var batch = RecordBatchBuilder()
/// batch.append(key: "note-1", value: Array("hello".utf8))
/// let offsets = try await notes.append(batch)   // 0..<1
/// ```
package final class MemoryLog: PartitionedLog {
    private struct State: Sendable {
        var partitions: [String: MemoryPartition] = [:]
        /// The directory name each partition would have in a ``Log``, to refuse the same clashes.
        var directoryNames: [String: String] = [:]
        var closed = false
    }

    package let options: LogOptions
    private let state = LockedValue(State())

    /// A new, empty log; `options` say how batches are encoded and bounded (``LogOptions/durability``
    /// and the segment settings have no effect).
    package init(options: LogOptions = LogOptions()) {
        self.options = options
    }

    package var partitionNames: [String] { state.withLock { $0.partitions.keys.sorted() } }

    package var syncCount: Int { 0 }

    package func partition(named name: String) throws -> MemoryPartition {
        guard let partition = state.withLock({ $0.partitions[name] }) else { throw LogError.partitionNotFound(name) }
        return partition
    }

    @discardableResult
    package func createPartition(named name: String) throws -> MemoryPartition {
        let directoryName = try ZoneDirectoryName.encode(name)
        return try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            if let existing = state.partitions[name] { return existing }
            if let clash = state.directoryNames[directoryName] {
                throw LogError.partitionDirectoryConflict(partition: name, existing: clash)
            }
            let partition = MemoryPartition(name: name, options: options)
            state.partitions[name] = partition
            state.directoryNames[directoryName] = name
            return partition
        }
    }

    package func deletePartition(named name: String) throws {
        try state.withLock { state in
            guard !state.closed else { throw LogError.closed }
            guard let partition = state.partitions.removeValue(forKey: name) else { throw LogError.partitionNotFound(name) }
            partition.close()
            state.directoryNames = state.directoryNames.filter { $0.value != name }
        }
    }

    package func sync() throws {}

    /// Memory has one writer, the log itself: nothing to catch up with.
    package func refresh() throws -> Bool { false }

    package func hasNewDurableData() -> Bool { false }

    package func close() throws {
        let all = state.withLock { state in
            state.closed = true
            return Array(state.partitions.values)
        }
        for partition in all { partition.close() }
    }
}
