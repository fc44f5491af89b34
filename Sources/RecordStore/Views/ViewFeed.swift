import Dispatch

/// Hands one view the commits, in log order: a large commit's fold runs on the view's own thread,
/// after the commit has returned, while the writer goes on with its next one.
///
/// A reader never sees the view behind a commit that has returned: every read of the view
/// (``ViewHandle/read(_:)``, ``ViewHandle/current``) first waits for the folds handed over
/// before it. The view may lag the database's state only between a commit's return and the next
/// read of it. At most one fold is in flight: the next commit's waits for it before its own
/// (small commits fold at once, on the committing thread, after it), so the view never falls
/// further behind than one commit and folds commits one at a time, in the order written, each
/// under one hold of the view's lock: a reader sees a commit whole or not at all.
///
/// One feed per view, never one for all: a reader may read one view inside another's `read`,
/// and it then waits only for that view's fold, which needs no lock but that view's.
final class ViewFeed: Sendable {
    /// Entered for a fold handed to `queue`, left when it is done.
    private let folds = DispatchGroup()
    private let queue: DispatchQueue

    init(viewName: String) {
        queue = DispatchQueue(label: "RecordStore.view." + viewName, qos: .userInitiated)
    }

    /// Runs `fold` on the feed's thread, after the fold in flight. Called with the database's
    /// lock held, so that commits reach the feed in log order.
    func foldInBackground(_ fold: @escaping @Sendable () -> Void) {
        waitForFolds()
        folds.enter()
        queue.async { [folds] in
            fold()
            folds.leave()
        }
    }

    /// Runs `fold` now, on this thread, after the fold in flight. Called with the database's lock
    /// held, so that commits reach the feed in log order.
    func foldNow(_ fold: () -> Void) {
        waitForFolds()
        fold()
    }

    /// Returns once every fold handed over so far is done.
    func waitForFolds() { folds.wait() }
}
