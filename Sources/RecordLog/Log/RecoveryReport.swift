/// What opening a store found and mended.
public struct RecoveryReport: Sendable, Equatable {
    /// A torn tail cut away: bytes of an incomplete write after the last whole batch.
    public struct TruncatedTail: Sendable, Equatable {
        public var file: String
        /// Where the file now ends.
        public var position: Int64
        public var bytesRemoved: Int64
        public var reason: String
    }

    public internal(set) var truncatedTails: [TruncatedTail] = []
    /// Zeros cut from the end of an active segment: space written ahead of the appends
    /// (`LogOptions.preallocationBytes`) by a writer that did not close the log. Not a torn write.
    public internal(set) var trimmedPreallocations: [TruncatedTail] = []
    /// Segments (their `.log` paths) whose index files were rebuilt by a scan: missing or
    /// inconsistent indexes, and sealed segments above the recovery point.
    public internal(set) var rebuiltIndexes: [String] = []
    /// Files removed because they belonged to nothing: index files without a segment, leftovers
    /// of an interrupted partition creation or deletion.
    public internal(set) var removedFiles: [String] = []

    /// Whether the store was opened as it was left: nothing cut, rebuilt or removed.
    public var isClean: Bool {
        truncatedTails.isEmpty && trimmedPreallocations.isEmpty && rebuiltIndexes.isEmpty && removedFiles.isEmpty
    }
}
