import Dispatch
import StorageKit

/// Hands one view the commits, in log order: a large commit's fold runs on the view's own queue,
/// after the commit has returned, while the writer goes on with its next one.
///
/// A reader never sees the view behind a commit that has returned: every read of the view
/// (``ViewHandle/read(_:)``, ``ViewHandle/current``) first awaits the folds handed over before
/// it — suspending, never blocking a thread. Folds run one at a time, in the order written, each
/// under one hold of the view's lock: a reader sees a commit whole or not at all. A small commit
/// folds at once on the committing thread when nothing is queued, else behind the queued folds.
/// Nothing here waits while the database's lock is held; the writer that queued a fold awaits,
/// after the lock, until at most that one fold is left (``awaitFolds(leaving:)``), so a view
/// falls no further behind than the commits in flight.
///
/// One feed per view, never one for all: a reader may read one view inside another's `read`,
/// and it then waits only for that view's folds, which need no lock but that view's.
final class ViewFeed: Sendable {
    private struct State {
        /// Folds handed to the queue so far, and of those, folds done: they count up forever.
        var handed: UInt64 = 0
        var done: UInt64 = 0
        /// Readers and writers suspended until `done` reaches their target.
        var waiters: [(target: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedValue(State())
    private let queue: DispatchQueue

    init(viewName: String) {
        queue = DispatchQueue(label: "RecordStore.view." + viewName, qos: .userInitiated)
    }

    /// Runs `fold` on the feed's queue, after the folds queued before it. Called with the
    /// database's lock held, so that commits reach the feed in log order.
    func foldInBackground(_ fold: @escaping @Sendable () -> Void) {
        state.withLock { $0.handed += 1 }
        queue.async { [self] in
            fold()
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.done += 1
                let done = state.done
                let ready = state.waiters.filter { $0.target <= done }.map(\.continuation)
                state.waiters.removeAll { $0.target <= done }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }
    }

    /// Runs `fold` now, on this thread, and returns true when no fold is queued; else returns
    /// false without running it (the caller queues it, so that it runs after them). Called with
    /// the database's lock held: only its holder queues folds, so none can be queued meanwhile.
    func foldNowIfIdle(_ fold: () -> Void) -> Bool {
        guard state.withLock({ $0.done == $0.handed }) else { return false }
        fold()
        return true
    }

    /// Suspends until every fold handed over so far but the last `leaving` is done.
    func awaitFolds(leaving: UInt64 = 0) async {
        let pending = state.withLock { state -> UInt64? in
            let target = state.handed >= leaving ? state.handed - leaving : 0
            return state.done >= target ? nil : target
        }
        guard let target = pending else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.done >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Blocks the calling thread until every fold handed over so far is done: for the
    /// checkpoint, which is synchronous and takes each view under the database's lock.
    func waitForFoldsBlocking() { queue.sync {} }
}
