/// What opening a store found and mended, for tests and tools (the product reports it through
/// the log's `Logger`).
package struct RecoveryReport: Sendable, Equatable {
    /// A torn tail cut away: bytes of an incomplete write after the last whole batch.
    package struct TruncatedTail: Sendable, Equatable {
        package var file: String
        /// Where the file now ends.
        package var position: Int64
        package var bytesRemoved: Int64
        package var reason: String
    }

    package internal(set) var truncatedTails: [TruncatedTail] = []
    /// Zeros cut from the end of an active segment: space written ahead of the appends
    /// (`LogOptions.preallocationBytes`) by a writer that did not close the log. Not a torn write.
    package internal(set) var trimmedPreallocations: [TruncatedTail] = []
    /// Segments (their `.log` paths) whose index files were rebuilt by a scan: missing or
    /// inconsistent indexes, and sealed segments above the recovery point.
    package internal(set) var rebuiltIndexes: [String] = []
    /// Files removed because they belonged to nothing: index files without a segment, leftovers
    /// of an interrupted partition creation or deletion.
    package internal(set) var removedFiles: [String] = []
    /// Compactions a crash interrupted, finished by the open: the `.log.swap` files renamed into
    /// place (FORMAT.md §13.1).
    package internal(set) var finishedSwaps: [String] = []

    /// Whether the store was opened as it was left: nothing cut, rebuilt or removed.
    package var isClean: Bool {
        truncatedTails.isEmpty && trimmedPreallocations.isEmpty && rebuiltIndexes.isEmpty && removedFiles.isEmpty && finishedSwaps.isEmpty
    }
}
