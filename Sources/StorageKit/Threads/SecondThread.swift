import Dispatch

/// Splits one piece of work across two cores: a part runs on a thread of the global queue while
/// the caller runs the other, and the caller waits for both. For work large enough that handing
/// half of it over costs less than it saves (a large commit's compression and planning).
package enum SecondThread {
    /// Runs `other` on another thread while `here` runs on this one; returns `other`'s result once
    /// both are done. Rethrows `here`'s error first, then `other`'s. `other` may use what the
    /// caller lends it until this returns.
    package static func run<Other: Sendable>(_ other: @escaping @Sendable () throws -> Other, while here: () throws -> Void) throws -> Other {
        let box = ResultBox<Other>()
        let work = DispatchWorkItem { box.result = Result { try other() } }
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
        let mine = Result { try here() }
        work.wait()
        try mine.get()
        // Set: the work item's wait returns only after the work ran.
        return try (box.result ?? .failure(NotRun())).get()
    }
}

/// What `run` would throw if the work item's wait returned before it ran, which it does not.
private struct NotRun: Error {}

/// The other thread's result: set before the work item's wait returns in the caller, and read
/// only after it.
private final class ResultBox<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
