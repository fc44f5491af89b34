import StorageKit
/// An event as a materialized view sees it.
public enum ViewEvent: Sendable, Hashable {
    /// A record saved (created or updated), in its new state.
    case saved(Record)
    /// A record deleted.
    case deleted(RecordID, recordType: String)
    /// A zone deleted with everything in it: drop what the view holds of it.
    case zoneDeleted(ZoneID)
}

/// A deterministic fold over the database's events, kept live on every commit, snapshotted with
/// the checkpoint, and rebuilt by replaying the log.
///
/// Events reach a view in log order within each zone; zones are independent partitions (as in
/// Kafka), so a view must not depend on the order of events of *different* zones — a replay
/// reads zone after zone. A view must forget a zone on `.zoneDeleted`: a replay never sees the
/// events of a deleted zone.
///
/// ```swift
/// struct NoteCount: MaterializedView {
///     static let name = "note-count"
///     var byZone: [String: Int] = [:]
///     mutating func apply(_ event: ViewEvent) { … }
/// }
/// let counts = try database.register(NoteCount.self)
/// counts.current.byZone
/// ```
public protocol MaterializedView: Sendable, Codable, Equatable {
    /// Names the view's snapshot file: 1 to 100 of `[A-Za-z0-9_-]`.
    static var name: String { get }
    /// The view of an empty database.
    init()
    /// Folds one event into the view.
    mutating func apply(_ event: ViewEvent)
    /// Folds a saved record read in place from the log: a replay calls this instead of
    /// ``apply(_:)`` with `.saved`, so that a view reads only the fields it needs. It must fold to
    /// the same view as `apply(.saved(record.materialized()))`, which is the default: live
    /// commits call ``apply(_:)``, and a live view must equal its replay.
    mutating func apply(saved record: StoredRecord)
    /// Whether the checkpoint writes the view's snapshot (its Codable JSON). A view that holds
    /// as much as the records themselves is rebuilt faster by replaying the log than by decoding
    /// its JSON, and its snapshot would double the store's size: such a view returns false.
    static var keepsSnapshot: Bool { get }
    /// Called before a replay folds in the zones' events, with how many live records of each
    /// record type the zones hold now, so a view keeping entries per record can size its tables
    /// once instead of growing them event by event. The default does nothing.
    mutating func willReplay(liveRecordsByType: [String: Int])
    /// Called once a replay's events are folded in (after ``willReplay(liveRecordsByType:)``).
    /// The default does nothing.
    mutating func didReplay()
    /// Called during a long replay a few events before a save of `recordID` is folded: a view
    /// that files records in a large table may start loading what folding it will touch
    /// (``SlotTable/prefetch(hash:)``), so that the cache misses of several records overlap
    /// instead of coming one after another. It must not change the view. The default does nothing.
    func prefetch(forSaved recordID: RecordID)
}

extension MaterializedView {
    public static var keepsSnapshot: Bool { true }

    /// Does nothing: a view that keeps entries per record may reserve room for them.
    public mutating func willReplay(liveRecordsByType: [String: Int]) {}

    /// Does nothing.
    public mutating func didReplay() {}

    /// Does nothing.
    public func prefetch(forSaved recordID: RecordID) {}

    /// Folds `.saved` with the materialized record.
    public mutating func apply(saved record: StoredRecord) {
        apply(.saved(record.materialized()))
    }
}
