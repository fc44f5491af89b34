/// What `bisect` found: the first offset whose event breaks the invariant.
public struct BisectResult: Sendable {
    /// The zone searched.
    public var zone: String
    /// The state before this offset (`--to-offset firstBadOffset`) is good, the state including
    /// it (`--to-offset firstBadOffset + 1`) is bad.
    public var firstBadOffset: Int64
    /// The event at that offset, as `log-inspect dump` shows it; nil when the offset holds none
    /// (a gap compaction left, with an invariant that does not depend on the state alone).
    public var event: InspectedRecord?
    /// What the event changed: the state before it against the state including it.
    public var diff: StateDiff
    /// The replays the search made, the two ends' included.
    public var replays: Int

    /// `{"firstBadOffset": N, "event": {…}, "diff": {…}, "replays": K}`: the event as a line of
    /// `log-inspect dump --json`, the diff as `log-replay diff --json`.
    public var json: String {
        JSONValue.object([
            ("firstBadOffset", .int(firstBadOffset)),
            ("event", event?.json() ?? .null),
            ("diff", diff.jsonValue),
            ("replays", .int(replays)),
        ]).pretty()
    }

    /// The offset, the event's dump line and the diff's lines.
    public var text: String {
        [
            "first bad offset: \(firstBadOffset) in zone \(zone) (\(replays) replays): the state before it is good, the state including it is bad",
            "event:", "  " + (event?.text() ?? "(no event at this offset)"),
            "diff (the state before offset \(firstBadOffset) → including it):",
            diff.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"),
        ].joined(separator: "\n")
    }
}

/// How a bisect ended: found, or the ends given do not bracket a change.
public enum BisectOutcome: Sendable {
    /// The first bad offset.
    case found(BisectResult)
    /// The state at `from` is already bad, or the state at `to` still good: nothing to search.
    /// `reason` says which, in a sentence.
    case notBracketed(reason: String, replays: Int)
}
