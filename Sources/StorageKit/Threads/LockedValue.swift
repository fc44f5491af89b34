#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a plain `pthread_mutex_t`: the one lock of the whole package — the
/// database's state lock, each view's and partition's, the group committer's, caches' and
/// feeds'. Nothing in `Sources/` uses another lock type; add none.
///
/// Not the standard library's `Mutex`, for two reasons. ThreadSanitizer sees a lock only
/// through the pthread calls it intercepts: on Linux `Mutex` is a bare futex, invisible to it,
/// so every state it guarded was reported as a race (RELIABILITY.md, "Races"). And that
/// `Mutex` is a priority-inheritance futex which spins before it sleeps. With many writers on two cores, a waiter spinning for a lock whose
/// holder has been descheduled took the holder's core, and every handoff went through the
/// kernel's `rt_mutex` (BENCHMARKS.md, "Figures behind the code"). A default mutex sleeps at
/// once on a plain futex and hands off without priority inheritance.
/// And a class is used from generic code (a view's lock, taken in a closure generic over the
/// view) without looking up a generic struct's metadata at run time on every commit.
@usableFromInline package final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched inside `withLock`, under `mutex`.
    @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Cannot fail for a default mutex (glibc and musl return 0 always).
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    @inlinable @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
