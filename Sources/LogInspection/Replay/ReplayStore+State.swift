/// The live records at a point, and how the point was applied.
public struct ReplayState: Sendable, Hashable {
    /// Where the replay stopped in each zone, and its warnings.
    public var plan: ReplayPlan
    /// The live records, by zone then record name.
    public var records: [LiveRecord]
}

extension ReplayStore {
    /// The live records of `zone` (every zone when nil) at `point`; see `plan(zone:at:)` for how
    /// the point applies to each zone.
    ///
    /// ```swift
    /// let then = try store.state(zone: "Notes", at: .time(1_714_564_800_000))
    /// for live in then.records { print(live.recordName, live.record["title"] as Any) }
    /// ```
    public func state(zone: String?, at point: ReplayPoint, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> ReplayState {
        let plan = try plan(zone: zone, at: point)
        let tracker = ProgressTracker(total: plan.eventCount, handler: progress)
        var records: [LiveRecord] = []
        for cut in plan.cuts {
            records += try liveRecords(cut.zone, from: cut.start, to: cut.end, progress: tracker).sorted
        }
        tracker.finish()
        return ReplayState(plan: plan, records: records)
    }

    /// Folds `zone`'s events in `from..<to`.
    func liveRecords(_ zone: String, from: Int64, to: Int64, progress: ProgressTracker? = nil) throws(ReplayError) -> LiveRecords {
        var live = LiveRecords()
        try forEachEvent(zone: zone, from: from, to: to, progress: progress) { live.apply($0) }
        return live
    }
}
