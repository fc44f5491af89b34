import Synchronization

/// A registered view, kept current by the database.
public final class ViewHandle<View: MaterializedView>: Sendable {
    let box: Mutex<View>

    init(_ view: View) { box = Mutex(view) }

    /// The view as of the last commit.
    public var current: View { box.withLock { $0 } }

    /// Reads the view without copying it.
    public func read<Result>(_ body: (borrowing View) throws -> Result) rethrows -> Result {
        try box.withLock { try body($0) }
    }
}

/// A view behind a type-erased face, as the database keeps it.
struct ViewSink: Sendable {
    let name: String
    /// The typed handle, for a second registration of the same view to share it.
    let handle: any Sendable
    /// Folds a whole commit's events under one hold of the view's lock: a reader sees the view
    /// before or after a commit, never in the middle of one.
    let apply: @Sendable ([ViewEvent]) -> Void
    /// The view's bytes for its snapshot (JSON).
    let encode: @Sendable () throws -> [UInt8]
    /// Whether the checkpoint snapshots this view.
    let keepsSnapshot: Bool

    init<View: MaterializedView>(_ handle: ViewHandle<View>) {
        name = View.name
        self.handle = handle
        apply = { events in
            handle.box.withLock { view in
                for event in events { view.apply(event) }
            }
        }
        encode = { try ViewSnapshot.encodeView(handle.current) }
        keepsSnapshot = View.keepsSnapshot
    }
}
