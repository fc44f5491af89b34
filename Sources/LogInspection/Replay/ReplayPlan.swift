/// The zones a replay reads and where it stops in each, with what the user should know about it.
public struct ReplayPlan: Sendable, Hashable {
    /// One cut per zone, sorted by zone name.
    public var cuts: [ZoneCut]
    /// Facts that make the result differ from what the app showed (a cut inside a commit, a zone
    /// deleted and created again since), one sentence each.
    public var warnings: [String]

    /// The events the whole replay reads.
    public var eventCount: Int64 { cuts.reduce(0) { $0 + $1.eventCount } }
}
