import StorageKit
/// A registered view, kept current by the database.
public final class ViewHandle<View: MaterializedView>: Sendable {
    let box: LockedValue<View>
    /// Whether registering the view started from its snapshot and folded in only the events after
    /// it, rather than replaying every zone's log.
    public let fromSnapshot: Bool

    /// Hands the view the commits; a read waits for its folds.
    let feed = ViewFeed(viewName: View.name)

    init(_ view: View, fromSnapshot: Bool) {
        box = LockedValue(view)
        self.fromSnapshot = fromSnapshot
    }

    /// The view as of the last commit that returned (or a later one). Suspends while a large
    /// commit that returned is still being folded into the view.
    public var current: View {
        get async {
            await feed.awaitFolds()
            return box.withLock { $0 }
        }
    }

    /// Reads the view without copying it, as of the last commit that returned (or a later one).
    ///
    /// `body` runs holding the view's lock, which commits need to fold into the view: it may read
    /// other views, but must not call the database (a commit waiting for this view would wait
    /// for `body`, and `body` for the commit). Suspends first while a large commit that returned
    /// is still being folded into the view.
    public func read<Result>(_ body: (borrowing View) throws -> Result) async rethrows -> Result {
        await feed.awaitFolds()
        return try box.withLock { try body($0) }
    }
}

/// Writes a view's snapshot taken earlier (``ViewSink/takeSnapshot``) into a store's directory.
typealias SnapshotWrite = @Sendable (_ directory: String, _ storeID: [UInt8], _ zones: [(name: String, incarnation: Int64, offset: Int64)]) throws -> Void

/// A view behind a type-erased face, as the database keeps it.
struct ViewSink: Sendable {
    let name: String
    /// The typed handle, for a second registration of the same view to share it.
    let handle: any Sendable
    /// Folds a commit's events, in order, under one hold of the view's lock (a reader sees a
    /// commit whole or not at all): after the folds queued before it, on the view's own queue
    /// when the second argument is true or folds are queued, else now (``ViewFeed``). Returns
    /// whether the fold was queued.
    let fold: @Sendable (_ events: ViewFoldEvents, _ inBackground: Bool) -> Bool
    /// Hands the view's commits over (``ViewFeed``): a writer awaits its queued folds there.
    let feed: ViewFeed
    /// Takes the view as it is now (a copy-on-write copy, under the view's lock) and returns what
    /// writes its snapshot into the store's directory, for its store ID and zone positions: the
    /// writing runs after the database's lock is released, while commits go on.
    let takeSnapshot: @Sendable () -> SnapshotWrite
    /// Whether the checkpoint snapshots this view.
    let keepsSnapshot: Bool

    init<View: MaterializedView>(_ handle: ViewHandle<View>) {
        name = View.name
        self.handle = handle
        fold = { events, inBackground in
            @Sendable func apply() {
                handle.box.withLock { view in
                    events.fold(into: &view)
                }
            }
            // A small commit's fold forms no escaping closure when nothing is queued: it runs on
            // every commit.
            if !inBackground, handle.feed.foldNowIfIdle(apply) { return false }
            handle.feed.foldInBackground(apply)
            return true
        }
        feed = handle.feed
        takeSnapshot = {
            handle.feed.waitForFoldsBlocking()
            let view = handle.box.withLock { $0 }
            if let mapped = view as? any MappedSnapshotView {
                return { directory, storeID, zones in try Database.writeMappedSnapshot(mapped, directory: directory, storeID: storeID, zones: zones) }
            }
            return { directory, storeID, zones in
                try Database.writeJSONSnapshot(ViewSnapshot.encodeView(view), name: View.name, directory: directory, storeID: storeID, zones: zones)
            }
        }
        keepsSnapshot = View.keepsSnapshot
    }
}
