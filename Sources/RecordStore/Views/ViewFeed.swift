import Dispatch

/// Hands commits to the views, in log order: a large commit's fold runs on a thread of its own,
/// after the commit has returned, while the writer goes on with its next one.
///
/// Readers never see a view behind a commit that has returned: every read of a view
/// (``ViewHandle/read(_:)``, ``ViewHandle/current``) first waits for the folds handed over
/// before it. A view may lag the database's state only between a commit's return and the next
/// read of the view. At most one fold is in flight: the next commit's waits for it before its own
/// (small commits fold at once, on the committing thread, after it), so the views never fall
/// further behind than one commit and fold commits one at a time, in the order written. Each
/// view folds a commit under one hold of its own lock: a reader sees it whole or not at all.
final class ViewFeed: Sendable {
    /// Entered for a fold handed to `queue`, left when it is done.
    private let folds = DispatchGroup()
    private let queue = DispatchQueue(label: "RecordStore.views", qos: .userInitiated)

    /// Folds `events` into `views`: on the feed's thread when `inBackground`, else now. Called
    /// with the database's lock held, so that commits reach the feed in log order.
    func fold(_ events: [ViewEvent], into views: [ViewSink], inBackground: Bool) {
        guard !views.isEmpty else { return }
        waitForFolds()
        guard inBackground else {
            for view in views { view.apply(events) }
            return
        }
        folds.enter()
        queue.async { [folds] in
            for view in views { view.apply(events) }
            folds.leave()
        }
    }

    /// Returns once every fold handed over so far is done.
    func waitForFolds() { folds.wait() }
}
