/// The events of one fold into a view (``ViewSink/fold``), in order.
///
/// Every save reaches a view as a ``StoredRecord`` over the bytes the log holds
/// (``MaterializedView/apply(saved:)``), live as on replay, so that a live view is the fold of
/// the same bytes as its replay. A commit hands every view its written plan and the values it
/// encoded once (``CommitValues``), not a list of events: each view reads them on the thread
/// its fold runs on, and the committing thread copies nothing for the views. What a reader
/// caught up on comes as the replay's chunk of checked values (``ReplayChunk``); a zone deleted
/// is a listed event.
struct ViewFoldEvents: Sendable {
    private enum Source: Sendable {
        case listed([ViewEvent])
        case written(ZoneID, saves: [ZonePlan.Save], values: CommitValues, deletes: [ZonePlan.Delete])
        case read(ReplayChunk)
    }

    private let source: Source

    /// Events already made; none of them a save.
    static func listed(_ events: [ViewEvent]) -> ViewFoldEvents { ViewFoldEvents(source: .listed(events)) }

    /// A written plan's events: its saves, read from `values`, then its deletes, as the log
    /// holds them.
    static func written(_ plan: borrowing ZonePlan, values: CommitValues) -> ViewFoldEvents {
        ViewFoldEvents(source: .written(plan.zoneID, saves: plan.saves, values: values, deletes: plan.deletes))
    }

    /// Events read from the log, their saves' values checked.
    static func read(_ chunk: ReplayChunk) -> ViewFoldEvents { ViewFoldEvents(source: .read(chunk)) }

    /// Folds the events into `view`, in order: each save through ``MaterializedView/apply(saved:)``.
    func fold<View: MaterializedView>(into view: inout View) {
        switch source {
        case .listed(let events):
            for event in events { view.apply(event) }
        case .written(let zoneID, let saves, let values, let deletes):
            values.forEachValue { index, value in
                // Encoded by this process from a record its planner validated: read, not checked.
                do {
                    view.apply(saved: try StoredRecord(trusting: value, recordID: saves[index].record.recordID))
                } catch {
                    assertionFailure("a commit's own encoding of \(saves[index].record.recordID) does not read back: \(error)")
                }
            }
            for delete in deletes { view.apply(.deleted(RecordID(recordName: delete.name, zoneID: zoneID), recordType: delete.recordType)) }
        case .read(let chunk):
            do {
                try chunk.fold(saved: { view.apply(saved: $0) }, other: { view.apply($0) })
            } catch {
                assertionFailure("a chunk's values were checked when it was filled, yet one does not read back: \(error)")
            }
        }
    }
}
