import Dispatch
import StorageKit

/// Group commit: appenders that wrote before a sync starts are all made durable by it.
///
/// Each write registers its file and gets a sequence number; `waitDurable` suspends until a sync
/// that started after that write has finished. Every fdatasync runs on the committer's own
/// serial queue, never on the caller's thread (which is most often one of Swift concurrency's
/// few cooperative threads, that a blocking syscall would take from every other task). The
/// first waiter to find no sync running starts one; waiters that arrive meanwhile park, and if
/// any are left when it is done the next sync covers all of them at once, so N concurrent
/// appenders cost about two fdatasyncs, not N. A failed sync poisons the committer: what reached
/// the disk is unknown (fsync errors are not retryable), so every later write is refused.
final class GroupCommitter: Sendable {
    private struct State {
        var written: UInt64 = 0
        var durable: UInt64 = 0
        var syncing = false
        /// The files written since the last sync, each with the durable-end mark that its sync
        /// makes true (the end of its latest write), for partitions that keep one.
        var dirty: [ObjectIdentifier: DirtyFile] = [:]
        var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var failure: LogError?
        /// How many group syncs ran (each one fdatasync per dirty file).
        var syncs = 0
    }

    /// A written file and the mark its partition publishes once it is synced.
    private struct DirtyFile {
        var file: OpenFile
        var mark: DurableEndFile?
        var end: DurableEnd

        /// Publishes the mark, now that the file is synced.
        func publish() { mark?.publish(end) }
    }

    private let state = LockedValue(State())
    private let queue = DispatchQueue(label: "RecordLog.GroupCommitter")

    /// How many group syncs have run: what group commit saves is appends minus this.
    var syncCount: Int { state.withLock { $0.syncs } }

    /// The error that poisoned the committer, if any.
    var failure: LogError? { state.withLock { $0.failure } }

    /// Notes a completed write to `file`; call it right after the write, in write order. Once a
    /// sync covers it, `end` is published to `mark`, before any appender it covers resumes.
    func registerWrite(to file: OpenFile, mark: DurableEndFile?, end: DurableEnd) -> UInt64 {
        state.withLock { state in
            state.written += 1
            state.dirty[ObjectIdentifier(file)] = DirtyFile(file: file, mark: mark, end: end)
            return state.written
        }
    }

    /// Returns once every write up to `sequence` is durable.
    func waitDurable(_ sequence: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let lead = state.withLock { state -> Bool in
                if let failure = state.failure {
                    continuation.resume(throwing: failure)
                    return false
                }
                if state.durable >= sequence {
                    continuation.resume()
                    return false
                }
                state.waiters.append((sequence, continuation))
                if state.syncing { return false }
                state.syncing = true
                return true
            }
            // The sync runs on the queue and resumes this waiter with the others it covers; the
            // waiters that came meanwhile are covered by the next one.
            if lead { queue.async { while self.syncOnce() {} } }
        }
    }

    /// Starts a sync covering every write so far on the committer's queue and returns at once,
    /// unless a sync is running already (the waiters then lead the next one as usual). A writer
    /// with work to do between its write and `waitDurable` overlaps that work with the
    /// fdatasync; the sync counts as the group's next one.
    func syncSoon() {
        let start = state.withLock { state -> Bool in
            guard state.failure == nil, !state.syncing, state.durable < state.written else { return false }
            state.syncing = true
            return true
        }
        if start { queue.async { while self.syncOnce() {} } }
    }

    /// Whether every write up to `sequence` is durable.
    func isDurable(_ sequence: UInt64) -> Bool { state.withLock { $0.durable >= sequence } }

    /// Returns once the syncs already handed to the committer's queue have run (for tests).
    func waitForQueuedSyncs() { queue.sync {} }

    /// Makes everything written so far durable, blocking the calling thread (for `Log.sync()`
    /// and closing, which are synchronous by contract).
    func syncNow() throws {
        let (target, files) = state.withLock { state in
            (state.written, state.dirty)
        }
        for dirty in files.values { try dirty.file.syncData() }
        for dirty in files.values { dirty.publish() }
        state.withLock { state in
            state.durable = max(state.durable, target)
        }
    }

    /// Runs one sync covering every write so far and resumes the waiters it covers. Returns
    /// whether waiters remain, in which case the caller must run the next sync.
    private func syncOnce() -> Bool {
        let (target, files) = state.withLock { state in
            let files = state.dirty
            state.dirty = [:]
            state.syncs += 1
            return (state.written, files)
        }
        var failure: LogError?
        do {
            for dirty in files.values { try dirty.file.syncData() }
            // Before any appender resumes: an acknowledged batch always lies below its mark.
            for dirty in files.values { dirty.publish() }
        } catch let error as LogError {
            failure = .poisoned(reason: "\(error)")
        } catch {
            failure = .poisoned(reason: "\(error)")
        }
        let (ready, more) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Bool) in
            if let failure {
                state.failure = failure
                let all = state.waiters.map(\.continuation)
                state.waiters = []
                state.syncing = false
                return (all, false)
            }
            state.durable = max(state.durable, target)
            let ready = state.waiters.filter { $0.sequence <= target }.map(\.continuation)
            state.waiters.removeAll { $0.sequence <= target }
            let more = !state.waiters.isEmpty
            if !more { state.syncing = false }
            return (ready, more)
        }
        for continuation in ready {
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
        return more
    }
}
