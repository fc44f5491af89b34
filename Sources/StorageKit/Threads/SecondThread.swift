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

extension SecondThread {
    /// `(0..<count).map(element)`, with the second half of the elements built on another thread
    /// from `twoThreadsFrom` elements on (and two): the same array either way, each element
    /// built once, straight into the array's memory.
    package static func map<Element: Sendable>(
        count: Int, twoThreadsFrom: Int, _ element: @escaping @Sendable (Int) -> Element
    ) -> [Element] {
        guard count >= max(2, twoThreadsFrom) else { return (0..<count).map(element) }
        let half = count / 2
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let lent = LentElements(base: base)
            let other: @Sendable () -> Void = {
                for index in half..<count { (lent.base + index).initialize(to: element(index)) }
            }
            let ran = (try? run(other, while: {
                for index in 0..<half { (base + index).initialize(to: element(index)) }
            })) != nil
            // `run` returns only once the other half ran; built here should it ever not have.
            if !ran {
                for index in half..<count { (base + index).initialize(to: element(index)) }
            }
            initialized = count
        }
    }
}

/// The array memory ``SecondThread/map(count:twoThreadsFrom:_:)`` lends the other thread for
/// the elements it builds, which no other thread touches until `run` returns.
private struct LentElements<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
}

/// What `run` would throw if the work item's wait returned before it ran, which it does not.
private struct NotRun: Error {}

/// The other thread's result: set before the work item's wait returns in the caller, and read
/// only after it.
private final class ResultBox<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}
