/// A view that wants to hear about a replay beyond its events: how large it is about to grow, when
/// it is done, and which record comes next. Opt in when the view keeps large tables per record;
/// a plain ``MaterializedView`` needs none of this.
///
/// `Database.register(_:)` and `rebuild(_:)` call the hooks when the view's type is known to
/// conform where they are called (a caller generic over `MaterializedView` alone registers the
/// view without them: the view is the same, only its replay may be slower).
///
/// ```swift
/// struct NotesByID: ReplayHintedView {
///     …
///     mutating func willReplay(liveRecordsByType: [String: Int]) {
///         table.reserveCapacity(liveRecordsByType["Note"] ?? 0)
///     }
/// }
/// ```
public protocol ReplayHintedView: MaterializedView {
    /// Called before a replay folds in the zones' events, with how many live records of each
    /// record type the zones hold now, so a view keeping entries per record can size its tables
    /// once instead of growing them event by event.
    mutating func willReplay(liveRecordsByType: [String: Int])
    /// Called once a replay's events are folded in (after ``willReplay(liveRecordsByType:)``).
    mutating func didReplay()
    /// Called during a long replay a few events before a save of `recordID` is folded: a view
    /// that files records in a large table may start loading what folding it will touch, so
    /// that the cache misses of several records overlap instead of coming one after another.
    /// It must not change the view.
    func prefetch(forSaved recordID: RecordID)
}

/// The replay hooks a view gets: none for a plain view, its own for a ``ReplayHintedView``.
struct ReplayHooks<View: MaterializedView> {
    var willReplay: (inout View, [String: Int]) -> Void = { _, _ in }
    var didReplay: (inout View) -> Void = { _ in }
    var prefetch: (inout View, RecordID) -> Void = { _, _ in }

    /// A plain view's: nothing.
    static var none: Self { Self() }
}

extension ReplayHooks where View: ReplayHintedView {
    /// A hinted view's own hooks.
    static var hinted: Self {
        Self(
            willReplay: { $0.willReplay(liveRecordsByType: $1) }, didReplay: { $0.didReplay() },
            prefetch: { $0.prefetch(forSaved: $1) })
    }
}
