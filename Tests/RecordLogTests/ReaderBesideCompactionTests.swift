import Foundation
import StorageKit
import Testing
import TestSupport
@testable import RecordLog

/// A read-only open beside a writer that compacts: whatever step of a swap (FORMAT.md §13.1) the
/// writer has reached, the reader opens and reads each offset either in its old segment or in
/// the cleaned one, never neither.
@Suite struct ReaderBesideCompactionTests {
    @Test("a reader opened at every step of a compaction reads every record the compaction keeps, each as written")
    func readerOpensAtEveryStep() async throws {
        try await withStorePath { store in
            let events = CompactionTests.rewrites(1200, keys: 40)
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 8192))
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(events, batchSize: 7)
            let survivors = Set(CompactionTests.survivors(events).map(\.offset))

            // The hook is the whole process's: it acts only on this test's compacting thread.
            let compacting = pthread_self()
            let looks = LockedValue<[(step: CompactionStep, outcome: String?)]>([])
            CompactionHook.stepReached.withLock { hook in
                hook = { step in
                    guard pthread_equal(pthread_self(), compacting) != 0 else { return }
                    looks.withLock { $0.append((step, Self.look(at: store, events: events, survivors: survivors))) }
                }
            }
            defer { CompactionHook.stepReached.withLock { $0 = nil } }
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            CompactionHook.stepReached.withLock { $0 = nil }
            try log.close()

            let seen = looks.withLock { $0 }
            // Every step was met, with a reader's open at each.
            #expect(Set(seen.map(\.step)) == Set(CompactionStep.allCases))
            for look in seen { #expect(look.outcome == nil, "at \(look.step): \(look.outcome ?? "")") }
        }
    }

    /// Opens the store read-only and reads the partition whole: nil when it holds every kept
    /// offset and each record it holds is the one written there; else what is wrong.
    private static func look(at store: String, events: [Event], survivors: Set<Int64>) -> String? {
        do {
            let reader = try Log(directory: store, options: fastOptions(segmentBytes: 8192, readOnly: true))
            defer { try? reader.close() }
            let read = try CompactionTests.read(try reader.partition(named: "Notes"), from: 0)
            if let wrong = read.first(where: { $0.offset >= events.count || events[Int($0.offset)] != $0.event }) {
                return "offset \(wrong.offset) holds a record not written there"
            }
            let missing = survivors.subtracting(read.map(\.offset))
            if !missing.isEmpty { return "\(missing.count) kept offsets missing, the first \(missing.min() ?? -1)" }
            return nil
        } catch {
            return "the open failed: \(error)"
        }
    }
}
