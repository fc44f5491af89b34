#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// The store's write lock: an exclusive `flock` on `<store>/.lock`, held while the log is open.
///
/// flock locks belong to an open file description, so a second open — from another process or
/// from this one — is refused while the first holds it, and the kernel releases it when the
/// holder exits, even by `kill -9`. Readers never take it (FORMAT.md §6.2).
final class StoreLock: Sendable {
    static let fileName = ".lock"
    let file: OpenFile

    /// Takes the lock now, or throws `LogError.locked` when another open holds it.
    convenience init(directory: String) throws {
        guard let file = try Self.lockedFile(directory: directory) else { throw LogError.locked(path: directory) }
        self.init(file: file)
    }

    private init(file: OpenFile) { self.file = file }

    /// Unlocks before the file is closed. Closing alone releases the lock only with the last
    /// descriptor of the open file description, and a child process another thread spawns holds
    /// a copy of every descriptor until it runs its program: a repair, or an open that failed,
    /// left the store locked for that moment, and the next open was refused.
    deinit { release() }

    /// Takes the lock when it is free; nil when another open holds it.
    static func attempt(directory: String) throws -> StoreLock? {
        try lockedFile(directory: directory).map(StoreLock.init(file:))
    }

    /// The lock file, opened and locked; nil when another open holds the lock.
    private static func lockedFile(directory: String) throws -> OpenFile? {
        let path = FileSystem.join(directory, Self.fileName)
        let file = try OpenFile(path: path, writable: true, create: true)
        while flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return nil }
            throw LogError.io(operation: "flock", path: path, errno: errno)
        }
        return file
    }

    /// Takes the lock, waiting up to `timeout` for the writer that holds it to close, then throws
    /// `LogError.locked`.
    ///
    /// Waiting is polling with a short sleep between attempts (`Task.sleep`, growing from 1 ms to
    /// at most 16 ms, jittered), not a blocking `flock` on a thread of its own: `flock` has no
    /// timed form, a thread blocked in it cannot be called back when the timeout passes or the
    /// task is cancelled (it would hold the lock when it finally got it, for nobody), and a sleep
    /// suspends the task without holding any cooperative thread. Each attempt is one
    /// non-blocking system call. The order among waiters is not strictly first-come (neither is
    /// `flock`'s own wait queue); a writer holds the lock for one open-commit-close of a few
    /// milliseconds to tens of milliseconds, so a waiter sampling every 16 ms or less gets its
    /// turn well within the default timeout.
    static func acquire(directory: String, timeout: Duration) async throws -> StoreLock {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pauseMicroseconds: Int64 = 1_000
        while true {
            if let lock = try attempt(directory: directory) { return lock }
            let now = clock.now
            guard now < deadline else { throw LogError.locked(path: directory) }
            // Jittered, so that waiters started together do not retry in lockstep.
            let pause = Duration.microseconds(pauseMicroseconds / 2 + Int64.random(in: 0...pauseMicroseconds))
            try await Task.sleep(until: min(deadline, now.advanced(by: pause)), clock: clock)
            pauseMicroseconds = min(pauseMicroseconds * 2, 16_000)
        }
    }

    /// Releases the lock now, before the last reference goes away (on `Log.close()`).
    func release() {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
