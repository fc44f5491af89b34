import StorageKit

/// The outcome of one append's PostgreSQL step, which the partition's sender settles when the
/// group the append went out in is confirmed or refused: what ``PostgresMirrorPartition``'s
/// `PendingAppend` awaits.
final class AppendTicket: Sendable {
    private struct State {
        var outcome: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    private let state = LockedValue(State())

    /// Settles the ticket: every waiter, now and later, gets `outcome`.
    func settle(_ outcome: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters {
            switch outcome {
            case .success: waiter.resume()
            case .failure(let error): waiter.resume(throwing: error)
            }
        }
    }

    /// Returns once the ticket is settled; throws its error.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                if state.outcome == nil { state.waiters.append(continuation) }
                return state.outcome
            }
            switch outcome {
            case nil: break
            case .success?: continuation.resume()
            case .failure(let error)?: continuation.resume(throwing: error)
            }
        }
    }
}
