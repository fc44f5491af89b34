import Foundation
@testable import RecordStore
import Synchronization
import Testing
import TuningSupport

/// How many events a view has folded in.
struct EventCount: MaterializedView {
    static let name = "event-count"
    var count = 0
    mutating func apply(_ event: ViewEvent) { count += 1 }
}

@Suite(.everyTuning) struct ViewCommitAtomicityTests {
    @Test("a reader of a live view sees whole commits, never part of one", arguments: StoreKind.allCases)
    func readersSeeWholeCommits(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let view = try database.register(EventCount.self)
            let commitSize = 200, commits = 30
            let done = Atomic<Bool>(false)
            let reader = Task.detached {
                var seen: Set<Int> = []
                while !done.load(ordering: .acquiring) {
                    seen.insert(await view.read { $0.count })
                    // A read with no fold pending does not suspend: without a yield this loop
                    // holds a cooperative thread, and a full run's other spinning readers the
                    // other, until the writers it waits for never run (a full run hung so).
                    await Task.yield()
                }
                return seen
            }
            for commit in 0..<commits {
                let records = (0..<commitSize).map { makeRecord("r-\(commit)-\($0)", ["text": .string("x")]) }
                _ = try await database.modifyRecords(saving: records, deleting: [])
            }
            done.store(true, ordering: .releasing)
            let seen = await reader.value
            #expect(seen.allSatisfy { $0 % commitSize == 0 }, "counts seen: \(seen.sorted().filter { $0 % commitSize != 0 }.prefix(5))")
            #expect(await view.current.count == commitSize * commits)
        }
    }
}
