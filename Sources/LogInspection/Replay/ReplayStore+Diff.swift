extension ReplayStore {
    /// The records added, changed (field by field) and deleted in `zone` between the points
    /// `from` and `to` (exclusive offsets, `from` ≤ `to`), reading the log once.
    ///
    /// ```swift
    /// let diff = try store.diff(zone: "Notes", from: 10, to: 20)
    /// for change in diff.changed { print(change.after.recordName, change.fields.map(\.key)) }
    /// ```
    ///
    /// - Throws: `unknownZone`, `reversedRange`, the offset errors of `plan(zone:at:)`.
    public func diff(zone: String, from: Int64, to: Int64, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> StateDiff {
        let first = try plan(zone: zone, at: .offset(from))
        let second = try plan(zone: zone, at: .offset(to))
        guard from <= to else { throw ReplayError.reversedRange(from: from, to: to) }
        let partition = try partition(zone)
        let tracker = ProgressTracker(total: to - partition.startOffset, handler: progress)
        let before = try liveRecords(zone, from: partition.startOffset, to: from, progress: tracker)
        var after = before
        try forEachEvent(zone: zone, from: from, to: to, progress: tracker) { after.apply($0) }
        tracker.finish()
        return StateDiff(zone: zone, from: from, to: to, before: before, after: after, warnings: first.warnings + second.warnings)
    }
}
