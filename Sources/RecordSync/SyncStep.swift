import StorageKit

/// Named points of a sync round, where the crash tests kill a real process (SIGKILL) to check
/// that what the next run does is right.
package enum SyncStep: String, Sendable, CaseIterable {
    /// The remote answered a batch of pending changes; the local acknowledgement is not written.
    case remoteAnswered
    /// The local acknowledgement of a batch is written.
    case acknowledged
}

/// The test seam at ``SyncStep``s: nil (nothing happens) except in the crash tests' child.
package enum SyncHook {
    package static let stepReached = LockedValue<(@Sendable (SyncStep) -> Void)?>(nil)

    static func reached(_ step: SyncStep) {
        if let hook = stepReached.withLock({ $0 }) { hook(step) }
    }
}
