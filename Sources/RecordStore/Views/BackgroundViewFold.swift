import Dispatch

/// A large commit's fold into the views, run on another thread while the committing thread
/// applies the same commit to the database's state and its fdatasync runs.
///
/// The committing thread holds the database's lock until ``wait()`` returns, so commits still
/// reach the views one at a time and in log order, and a reader that waits for the lock after a
/// view showed it a commit finds the commit in the state too. Each view still folds the commit
/// under one hold of its own lock: a reader sees it whole or not at all.
struct BackgroundViewFold {
    private let work: DispatchWorkItem

    /// Starts folding `events` into `views`, in order, on a thread of the global queue.
    init(views: [ViewSink], events: [ViewEvent]) {
        work = DispatchWorkItem {
            for view in views { view.apply(events) }
        }
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
    }

    /// Returns once every view has folded the commit.
    func wait() { work.wait() }
}
