import StorageKit

/// Hands each event to every stream open at the time, in order. A stream that is not read keeps
/// only its newest 10,000 events: a forgotten stream costs bounded memory.
final class SyncEventBroadcaster: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<SyncEvent>.Continuation] = [:]
        var next = 0
        var finished = false
    }

    private let state = LockedValue(State())

    func stream() -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let id: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func post(_ event: SyncEvent) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        let continuations = state.withLock { state in
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
