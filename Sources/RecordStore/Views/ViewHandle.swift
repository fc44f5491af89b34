import Synchronization

/// A registered view, kept current by the database.
public final class ViewHandle<View: MaterializedView>: Sendable {
    let box: Mutex<View>
    /// Whether registering the view started from its snapshot and folded in only the events after
    /// it, rather than replaying every zone's log.
    public let fromSnapshot: Bool

    init(_ view: View, fromSnapshot: Bool) {
        box = Mutex(view)
        self.fromSnapshot = fromSnapshot
    }

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
    /// Folds a commit's events, in order, under one hold of the view's lock: a reader sees a
    /// commit whole or not at all.
    let apply: @Sendable ([ViewEvent]) -> Void
    /// Writes the view's snapshot into the store's directory, for its store ID and zone positions.
    let writeSnapshot: @Sendable (_ directory: String, _ storeID: [UInt8], _ zones: [(name: String, incarnation: Int64, offset: Int64)]) throws -> Void
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
        if View.self is any MappedSnapshotView.Type {
            writeSnapshot = { directory, storeID, zones in
                try handle.read { view in
                    // Always true: the type was checked above.
                    guard let mapped = copy view as? any MappedSnapshotView else { return }
                    try Database.writeMappedSnapshot(mapped, directory: directory, storeID: storeID, zones: zones)
                }
            }
        } else {
            writeSnapshot = { directory, storeID, zones in
                try Database.writeJSONSnapshot(
                    ViewSnapshot.encodeView(handle.current), name: View.name, directory: directory, storeID: storeID, zones: zones)
            }
        }
        keepsSnapshot = View.keepsSnapshot
    }
}
