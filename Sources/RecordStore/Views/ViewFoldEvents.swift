/// The events of one fold into a view (``ViewSink/fold``), in order.
///
/// A commit hands every view its written plan itself, not a list of events: each view reads the
/// plan's saved records where the plan holds them, on the thread its fold runs on, so the
/// committing thread copies no record for the views (those copies were about 2 % of a
/// 1000-record commit's time on the committing thread). Other folds (a zone deleted, what a
/// reader caught up on) list their events.
struct ViewFoldEvents: Sendable {
    private enum Source: Sendable {
        case listed([ViewEvent])
        case written(ZoneID, saves: [ZonePlan.Save], deletes: [ZonePlan.Delete])
    }

    private let source: Source

    /// Events already made.
    static func listed(_ events: [ViewEvent]) -> ViewFoldEvents { ViewFoldEvents(source: .listed(events)) }

    /// A written plan's events: its saves, then its deletes, as the log holds them.
    static func written(_ plan: borrowing ZonePlan) -> ViewFoldEvents {
        ViewFoldEvents(source: .written(plan.zoneID, saves: plan.saves, deletes: plan.deletes))
    }

    /// Calls `body` with each event, in order.
    func forEach(_ body: (ViewEvent) -> Void) {
        switch source {
        case .listed(let events):
            for event in events { body(event) }
        case .written(let zoneID, let saves, let deletes):
            for index in saves.indices { body(.saved(saves[index].record)) }
            for delete in deletes { body(.deleted(RecordID(recordName: delete.name, zoneID: zoneID), recordType: delete.recordType)) }
        }
    }
}
