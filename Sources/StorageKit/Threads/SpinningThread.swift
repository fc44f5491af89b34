import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs one job each time it is woken, and stays awake for a moment
/// after each run so that a wake-up that follows soon costs no kernel round trip.
///
/// For work that blocks (an fdatasync) and must never run on Swift concurrency's cooperative
/// threads. Handing it to a dispatch queue costs a thread wake-up per job — tens of microseconds
/// on a virtual machine, against a 100–250 µs fdatasync — on every lone durable commit. This
/// thread instead spins for `spin` after a run, checking one atomic flag, and only then sleeps on
/// a semaphore: a writer that commits again within that window finds it awake.
///
/// Wake-ups coalesce: a `wake()` while a run is pending or running asks for one more run after it
/// (the job must do all the work there is, as the group committer's sync loop does). The thread
/// ends after ``stop()``; a job never runs after `stop()` returns unless it was already running.
package final class SpinningThread: Sendable {
    /// The flags the thread and its wakers share.
    private final class Signals: Sendable {
        /// A run is asked for.
        let requested = Atomic<Bool>(false)
        /// The thread sleeps (or is about to) on `semaphore`: a waker must signal it.
        let sleeping = Atomic<Bool>(false)
        let stopped = Atomic<Bool>(false)
        let semaphore = DispatchSemaphore(value: 0)

        /// Asks for a run, signalling the thread only if it sleeps.
        func wake() {
            requested.store(true, ordering: .sequentiallyConsistent)
            if sleeping.exchange(false, ordering: .sequentiallyConsistent) { semaphore.signal() }
        }

        /// Returns once a run is asked for (true) or the thread must end (false).
        func awaitRequest(spin: Duration) -> Bool {
            while true {
                if stopped.load(ordering: .acquiring) { return false }
                if requested.exchange(false, ordering: .sequentiallyConsistent) { return true }
                if spinUntilRequested(for: spin) { continue }
                sleeping.store(true, ordering: .sequentiallyConsistent)
                // A wake that came between the spin and the store above would not signal: look
                // once more. If a waker took `sleeping` meanwhile, its signal is on the way and
                // must be consumed here, or the next sleep would end at once for nothing.
                if requested.load(ordering: .sequentiallyConsistent) || stopped.load(ordering: .sequentiallyConsistent) {
                    if !sleeping.exchange(false, ordering: .sequentiallyConsistent) { semaphore.wait() }
                    continue
                }
                semaphore.wait()
            }
        }

        /// Spins for at most `spin`; returns whether a run was asked for meanwhile.
        private func spinUntilRequested(for spin: Duration) -> Bool {
            guard spin > .zero else { return false }
            let clock = ContinuousClock()
            let deadline = clock.now + spin
            while clock.now < deadline {
                if requested.load(ordering: .relaxed) || stopped.load(ordering: .relaxed) { return true }
            }
            return false
        }
    }

    private let signals = Signals()

    /// Starts a thread named `name` that runs `job` once per (coalesced) ``wake()``, spinning for
    /// `spin` after each run before it sleeps (`.zero`: it sleeps at once).
    package init(name: String, spin: Duration, job: @escaping @Sendable () -> Void) {
        let signals = signals
        let thread = Thread {
            while signals.awaitRequest(spin: spin) { job() }
        }
        thread.name = name
        thread.start()
    }

    deinit { stop() }

    /// Asks for a run of the job: at once if the thread is idle, else after the current run.
    package func wake() { signals.wake() }

    /// Ends the thread once its current run, if any, is done. Does not wait for it.
    package func stop() {
        signals.stopped.store(true, ordering: .sequentiallyConsistent)
        if signals.sleeping.exchange(false, ordering: .sequentiallyConsistent) { signals.semaphore.signal() }
    }
}
