import StorageKit

/// Fans note updates out to every open stream.
final class UpdateBroadcaster: Sendable {
    private let continuations = LockedValue<[Int: AsyncStream<NoteUpdate>.Continuation]>([:])
    private let nextID = LockedValue(0)

    func stream() -> AsyncStream<NoteUpdate> {
        let (stream, continuation) = AsyncStream<NoteUpdate>.makeStream(bufferingPolicy: .unbounded)
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { _ = $0.removeValue(forKey: id) }
        }
        return stream
    }

    func post(_ update: NoteUpdate) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(update) }
    }

    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
