import Foundation
import Testing
import TestSupport
@testable import RecordLog

/// A compaction killed (SIGKILL, in a real child process) at each of its steps: the next open
/// finishes or rolls back what was under way, and the log holds every key's latest event once,
/// at its offset, and nothing that was not written.
@Suite struct CompactionCrashTests {
    static let options = fastOptions(segmentBytes: 4096)
    /// 3,000 events: the first 600 rewrite ten keys (those segments end up empty: the start
    /// goes), then a third of the events rewrite the ten keys (some as deletes) between events
    /// of keys written once, so that every later segment loses records and the rest clean into
    /// several groups (each step taken more than once).
    static let events: [Event] = CompactionTests.rewrites(3000, keys: 10, deleteEvery: 7).enumerated().map { index, event in
        guard index >= 600, index % 3 != 0, event.key != nil else { return event }
        var once = event
        once.key = Array("once-\(index)".utf8)
        once.value = once.value ?? [1]
        return once
    }

    /// Every step, and the second time each per-group step is reached.
    static let cases: [(CompactionStep, Int)] =
        CompactionStep.allCases.map { ($0, 1) }
        + [CompactionStep.cleanedWritten, .swapReady, .oldSegmentsRemoved, .swapInstalled].map { ($0, 2) }

    @Test("a compaction killed at any step loses nothing and duplicates nothing", arguments: cases)
    func killedAtStep(_ step: CompactionStep, occurrence: Int) async throws {
        let child = try #require(ChildProcess.builtExecutable("compaction-crash-child"), "build the package first")
        try await withStorePath { store in
            try await makeStore(at: store, options: Self.options, events: Self.events, batchSize: 5)
            let outcome = try await ChildProcess.run(child, [store, "Notes", step.rawValue, String(occurrence), String(Self.options.segmentBytes)])
            // Killed by SIGKILL at the step (a process killed by a signal reports the signal).
            #expect(outcome.status == SIGKILL, "the child did not stop at \(step) #\(occurrence): \(outcome.errorText)")

            let log = try Log(directory: store, options: Self.options)
            let partition = try log.partition(named: "Notes")
            #expect(partition.endOffset == Int64(Self.events.count))
            try Self.checkConsistent(partition)
            // Odd from the plan to the end, made even by this open once the swaps are settled:
            // a change token stamped before the compaction no longer matches (FORMAT.md §11.1).
            #expect(partition.expiryOffset > 0 && partition.dropSequence == 2, "the compaction drops deletes: the sequence moved by two")
            // Compacting again finishes the job: exactly the survivors, every delete dropped.
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            let final = CompactionTests.survivors(Self.events, tombstoneCutoff: .max)
            #expect(CompactionTests.same(try CompactionTests.read(partition, from: partition.startOffset), final))
            try log.close()
        }
    }

    @Test("a compaction run to the end in a child process leaves a log that reopens clean")
    func finishedInChild() async throws {
        let child = try #require(ChildProcess.builtExecutable("compaction-crash-child"), "build the package first")
        try await withStorePath { store in
            try await makeStore(at: store, options: Self.options, events: Self.events, batchSize: 5)
            let outcome = try await ChildProcess.run(child, [store, "Notes", "none", "1", String(Self.options.segmentBytes)])
            #expect(outcome.status == 0, "\(outcome.errorText)")
            let log = try Log(directory: store, options: Self.options)
            #expect(log.recoveryReport.isClean)
            let partition = try log.partition(named: "Notes")
            let final = CompactionTests.survivors(Self.events, tombstoneCutoff: .max)
            #expect(CompactionTests.same(try CompactionTests.read(partition, from: partition.startOffset), final))
            try log.close()
        }
    }

    /// What holds after any crash: offsets increase (no duplicate), every record read is the
    /// event written at its offset (nothing invented or changed), every key's latest event is
    /// there — a delete may be missing only below the expiry offset, which recorded its drop.
    static func checkConsistent(_ partition: Partition) throws {
        let read = try CompactionTests.read(partition, from: partition.startOffset)
        var previous: Int64 = -1
        for (offset, event) in read {
            #expect(offset > previous, "offset \(offset) after \(previous)")
            previous = offset
            #expect(event == events[Int(offset)], "offset \(offset) holds another event")
        }
        let present = Set(read.map(\.offset))
        for (offset, event) in CompactionTests.survivors(events) where !present.contains(offset) {
            #expect(event.value == nil && offset < partition.expiryOffset, "the latest event at \(offset) is lost")
        }
    }
}
