import Dispatch
import Testing
@testable import StorageKit

/// The lock behind the database's state and each view: what every commit relies on.
@Suite struct LockedValueTests {
    private struct Failure: Error, Equatable {}

    @Test("changes made under the lock from many threads at once are none of them lost")
    func mutualExclusion() {
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                counter.withLock { value in
                    // A read and a write apart, as a commit's check and its write are.
                    let read = value
                    value = read &+ 1
                }
            }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    @Test("an error thrown under the lock reaches the caller, typed, and leaves the lock free")
    func throwingBody() {
        let locked = LockedValue([1, 2])
        #expect(throws: Failure.self) {
            try locked.withLock { (value: inout [Int]) throws(Failure) in
                value.append(3)
                throw Failure()
            }
        }
        // Taken again at once: the throw released it (a held default mutex would block here).
        #expect(locked.withLock { $0 } == [1, 2, 3])
    }
}
