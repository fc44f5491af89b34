import StorageKit

/// Named points of a sync round, where the crash tests kill a real process (SIGKILL) to check
/// that what the next run does is right.
package enum SyncStep: String, Sendable, CaseIterable {
    /// Adopting a zone that existed before sync: its `_sync.zone` record, marked `adopting`, is
    /// written; no record is marked pending yet.
    case adoptionBegun
    /// Adopting a zone: one commit of pending marks is written; more may follow.
    case adoptionMarked
    /// The remote answered a batch of pending changes; the local acknowledgement is not written.
    case remoteAnswered
    /// The local acknowledgement of a batch is written.
    case acknowledged
    /// An acknowledgement too large for one local commit: its first half is written, the rest
    /// is not.
    case acknowledgedInPart
    /// A fetched page too large for one local commit: its first half is applied (with the
    /// zone's previous token), the rest is not.
    case appliedInPart

    /// The steps of sending a batch (the others are adoption's and splitting's).
    package static let sending: [SyncStep] = [.remoteAnswered, .acknowledged]
}

/// The test seam at ``SyncStep``s: nil (nothing happens) except in the crash tests' child.
package enum SyncHook {
    package static let stepReached = LockedValue<(@Sendable (SyncStep) -> Void)?>(nil)

    static func reached(_ step: SyncStep) {
        if let hook = stepReached.withLock({ $0 }) { hook(step) }
    }
}
