import Dispatch
import Foundation
import StorageKit

/// The key index checkpoint read and checked on another thread while the log opens: an open's
/// two largest reads, the checkpoint's CRC blocks and the validation of each zone's active
/// segment, overlap (``CommitTuning/twoThreadOpenBytes``).
///
/// The read starts before the open holds the store's lock, so another writer may replace the
/// checkpoint meanwhile: ``take()`` gives the read only if the path still names the file read
/// once the lock is held, and the open reads the checkpoint itself otherwise — as it does
/// when this read found no usable checkpoint, so that what it logs and keeps is what an open
/// without the overlap logs and keeps.
final class CheckpointPrefetch: Sendable {
    typealias Read = (storeID: [UInt8], zones: [String: KeyIndexSnapshot.Zone], file: MappedFile)

    private struct State {
        var done = false
        /// The read, held here alone from the moment it is done until ``take()`` moves it out: a
        /// second holder of the index's arrays would make the open's first write into them copy
        /// every one to the heap.
        var read: Read?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedValue(State())

    /// Starts reading the checkpoint at `path` on a thread of the global queue, when the file
    /// holds at least `fromBytes` bytes; nil (the open reads it itself) otherwise.
    static func start(path: String, fromBytes: Int) -> CheckpointPrefetch? {
        var info = stat()
        guard fromBytes < .max, stat(path, &info) == 0, Int(info.st_size) >= fromBytes else { return nil }
        let prefetch = CheckpointPrefetch()
        DispatchQueue.global(qos: .userInitiated).async {
            // Reasons for refusing it are not logged here: the open reads the file again, and
            // logs them then.
            var read = KeyIndexSnapshot.readMapped(path: path) { _ in }
            let waiter = prefetch.state.withLock { state in
                state.done = true
                state.read = read.take()
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
        return prefetch
    }

    /// The checkpoint read, once it is done (suspending until then), if it found a usable file
    /// and the path still names that file; nil otherwise, and for every call after the first.
    func take() async -> Read? {
        await waitUntilDone()
        guard let read = state.withLock({ $0.read.take() }), read.file.isStillNamed() else { return nil }
        return read
    }

    /// Suspends until the read is done. One caller at a time: the open, or a test before it.
    func waitUntilDone() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if !state.done { state.waiter = continuation }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
