import Testing
@testable import StorageKit

/// Work split across two cores: the same result as on one.
@Suite struct SecondThreadTests {
    @Test("map builds the array a plain map does, each element once, on one thread or two", arguments: [0, 1, 2, 3, 1_001])
    func mapBuildsTheSameArray(count: Int) {
        for twoThreadsFrom in [Int.max, 2] {
            let built = LockedValue([Int](repeating: 0, count: count))
            let array = SecondThread.map(count: count, twoThreadsFrom: twoThreadsFrom) { index in
                built.withLock { $0[index] += 1 }
                return "element \(index)"
            }
            #expect(array == (0..<count).map { "element \($0)" })
            #expect(built.withLock { $0 }.allSatisfy { $0 == 1 }, "every element built exactly once")
        }
    }
}
