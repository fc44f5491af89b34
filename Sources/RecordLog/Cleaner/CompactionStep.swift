import StorageKit

/// The named steps of a compaction, in order: the points at which a crash test stops a child
/// process (``CompactionHook``), and the states recovery must finish or roll back (FORMAT.md §13).
package enum CompactionStep: String, CaseIterable, Sendable {
    /// The plan is made and the cleaner checkpoint holds the new log start and expiry offset;
    /// no segment has changed yet.
    case planned
    /// The segments below the new log start are removed.
    case leadingSegmentsRemoved
    /// A group's cleaned segment is written and synced as `<base>.log.cleaned`.
    case cleanedWritten
    /// It is renamed to `<base>.log.swap`: from here recovery finishes the swap.
    case swapReady
    /// The group's old segment files after the first, and the first's index files, are removed.
    case oldSegmentsRemoved
    /// The swap file is renamed over `<base>.log`.
    case swapInstalled
    /// Every group is done and the cleaner checkpoint records the cleaned range.
    case finished
}

/// A test's hook into a compaction: called at each step, on the compacting thread. Set only by
/// test support (the crash-test child process), never by the library.
package enum CompactionHook {
    package static let stepReached = LockedValue<(@Sendable (CompactionStep) -> Void)?>(nil)

    static func reached(_ step: CompactionStep) {
        if let hook = stepReached.withLock({ $0 }) { hook(step) }
    }
}
