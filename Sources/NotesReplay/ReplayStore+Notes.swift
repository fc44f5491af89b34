import LogInspection
import Notes

extension ReplayStore {
    /// The zone the Notes app keeps its folders and notes in.
    package static let notesZone = "Notes"

    /// The Folders and Notes views at `point`, folded from the Notes zone's events as the app
    /// folds them (`.zoneOffset` must name the Notes zone).
    ///
    /// ```swift
    /// let then = try store.notes(at: .zoneOffset(zone: "Notes", offset: 12))
    /// for group in then.listing { print(group.folder?.name ?? "?", group.notes.map(\.title)) }
    /// ```
    ///
    /// - Throws: `notNotesZone`, `unknownZone` (a store the app never opened), the errors of `plan(zone:at:)`.
    package func notes(at point: StorePoint, progress: ReplayProgressHandler? = nil) throws(ReplayError) -> NotesAtPoint {
        let plan: ReplayPlan
        switch point {
        case .zoneOffset(let zone, let offset):
            guard zone == Self.notesZone else { throw ReplayError.notNotesZone(zone) }
            plan = try self.plan(zone: zone, at: .offset(offset))
        case .time(let time):
            plan = try self.plan(zone: Self.notesZone, at: .time(time))
        }
        var folders = FoldersView()
        var notes = NotesView()
        let tracker = ProgressTracker(total: plan.eventCount, handler: progress)
        for cut in plan.cuts {
            try forEachEvent(zone: cut.zone, from: cut.start, to: cut.end, progress: tracker) { event in
                folders.apply(event.viewEvent)
                notes.apply(event.viewEvent)
            }
        }
        tracker.finish()
        return NotesAtPoint(folders: folders, notes: notes, plan: plan)
    }
}
