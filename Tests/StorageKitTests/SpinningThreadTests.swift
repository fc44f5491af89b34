import Foundation
import StorageKit
import Testing

/// The sync thread's hand-off: every wake is followed by a run that starts after it, whether
/// the thread was spinning, asleep, or falling asleep — a lost wake-up would leave a durable
/// commit waiting forever, which the time limit turns into a failure.
@Suite(.timeLimit(.minutes(2))) struct SpinningThreadTests {
    /// What the job has seen: the latest round it ran for, and who waits for a round.
    final class Rounds: Sendable {
        private struct State {
            var asked = 0
            var ran = 0
            var waiter: (round: Int, continuation: CheckedContinuation<Void, Never>)?
        }
        private let state = LockedValue(State())

        /// The job: takes the latest round asked for and resumes its waiter.
        func run() {
            let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.ran = state.asked
                guard let waiter = state.waiter, waiter.round <= state.ran else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            ready?.resume()
        }

        func ask(_ round: Int) { state.withLock { $0.asked = round } }

        /// Returns once a run has seen `round`.
        func awaitRun(of round: Int) async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> Bool in
                    if state.ran >= round { return true }
                    state.waiter = (round, continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }

    @Test("every wake is followed by a run that sees it: spinning, asleep, or in between", arguments: [Duration.zero, .microseconds(50), .milliseconds(5)])
    func everyWakeRuns(spin: Duration) async {
        let rounds = Rounds()
        let thread = SpinningThread(name: "test", spin: spin) { rounds.run() }
        for round in 1...2_000 {
            rounds.ask(round)
            thread.wake()
            await rounds.awaitRun(of: round)
        }
        thread.stop()
    }

    @Test("wakes from many tasks at once coalesce, and none is lost")
    func concurrentWakes() async {
        let rounds = Rounds()
        let thread = SpinningThread(name: "test", spin: .microseconds(20)) { rounds.run() }
        for round in 1...200 {
            rounds.ask(round)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { thread.wake() } }
            }
            await rounds.awaitRun(of: round)
        }
        thread.stop()
    }
}
