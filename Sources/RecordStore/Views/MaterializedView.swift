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
    /// Folds one event into the view. The database calls it for deletions and deleted zones;
    /// every save comes through ``apply(saved:)``, whose default calls this with `.saved`.
    mutating func apply(_ event: ViewEvent)
    /// Folds a saved record read in place from the bytes the log holds, so that a view reads only
    /// the fields it needs. The database folds every save through it — a live commit, a replay,
    /// what a read-only database catches up on — so a live view is the fold of the same bytes as
    /// its replay. The default folds `apply(.saved(record.materialized()))`.
    mutating func apply(saved record: StoredRecord)
    /// Whether the checkpoint writes the view's snapshot (its Codable JSON). A view that holds
    /// as much as the records themselves is rebuilt faster by replaying the log than by decoding
    /// its JSON, and its snapshot would double the store's size: such a view returns false.
    static var keepsSnapshot: Bool { get }
}

extension MaterializedView {
    public static var keepsSnapshot: Bool { true }

    /// Folds `.saved` with the materialized record.
    public mutating func apply(saved record: StoredRecord) {
        apply(.saved(record.materialized()))
    }
}
