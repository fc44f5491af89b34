import Foundation
import Testing
import TestSupport
@testable import RecordLog

/// `Log.repair` on a store whose compaction was killed (SIGKILL, in a real child process) at each
/// step: it settles the compaction exactly as a writer's open does (FORMAT.md §13.1) — a swap
/// under way is finished, never taken for missing segments and cut — so that the repaired store
/// holds every key's latest event once, at its offset, and nothing is reported lost.
@Suite struct RepairCompactionCrashTests {
    @Test("Log.repair after a compaction killed at any step finishes it and loses nothing", arguments: CompactionCrashTests.cases)
    func repairAfterKill(_ step: CompactionStep, occurrence: Int) async throws {
        let child = try #require(ChildProcess.builtExecutable("compaction-crash-child"), "build the package first")
        let options = CompactionCrashTests.options
        try await withStorePath { store in
            try await makeStore(at: store, options: options, events: CompactionCrashTests.events, batchSize: 5)
            let outcome = try await ChildProcess.run(child, [store, "Notes", step.rawValue, String(occurrence), String(options.segmentBytes)])
            #expect(outcome.status == SIGKILL, "the child did not stop at \(step) #\(occurrence): \(outcome.errorText)")
            let swapsLeft = Self.files(under: store, endingWith: SegmentName.swapSuffix)

            let report = try Log.repair(directory: store, options: options)
            #expect(report.repairs.isEmpty, "repair cut a sound store: \(report.repairs.map(\.reason))")
            #expect(report.quarantinedSwaps.isEmpty)
            #expect(report.finishedSwaps.count == swapsLeft.count)
            if [.swapReady, .oldSegmentsRemoved].contains(step) { #expect(!swapsLeft.isEmpty, "no swap file to finish at \(step)") }
            #expect(Self.files(under: store, endingWith: SegmentName.swapSuffix).isEmpty)
            #expect(Self.files(under: store, endingWith: SegmentName.cleanedSuffix).isEmpty)

            let log = try Log(directory: store, options: options)
            #expect(log.recoveryReport.finishedSwaps.isEmpty, "the open found a swap the repair left")
            let partition = try log.partition(named: "Notes")
            #expect(partition.endOffset == Int64(CompactionCrashTests.events.count))
            try CompactionCrashTests.checkConsistent(partition)
            try log.close()
        }
    }

    @Test("a damaged swap file goes to lost+found; the store then opens")
    func damagedSwap() async throws {
        let child = try #require(ChildProcess.builtExecutable("compaction-crash-child"), "build the package first")
        let options = CompactionCrashTests.options
        try await withStorePath { store in
            try await makeStore(at: store, options: options, events: CompactionCrashTests.events, batchSize: 5)
            let outcome = try await ChildProcess.run(
                child, [store, "Notes", CompactionStep.swapReady.rawValue, "1", String(options.segmentBytes)])
            #expect(outcome.status == SIGKILL)
            let swap = try #require(Self.files(under: store, endingWith: SegmentName.swapSuffix).first)
            var bytes = try #require(FileManager.default.contents(atPath: swap))
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: swap))
            #expect(throws: LogError.self) { try Log(directory: store, options: options).close() }

            let report = try Log.repair(directory: store, options: options)
            #expect(report.quarantinedSwaps.count == 1)
            let kept = try #require(report.quarantinedSwaps.first)
            #expect(kept.contains("/lost+found/") && FileManager.default.contents(atPath: kept) == bytes)
            let log = try Log(directory: store, options: options)
            // The swap was taken at `swapReady`: the old segments are all there.
            #expect(try log.partition(named: "Notes").endOffset == Int64(CompactionCrashTests.events.count))
            try CompactionCrashTests.checkConsistent(try log.partition(named: "Notes"))
            try log.close()
        }
    }

    static func files(under directory: String, endingWith suffix: String) -> [String] {
        let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        return names.filter { $0.hasSuffix(suffix) && !$0.contains("lost+found") }.map { directory + "/" + $0 }
    }
}
