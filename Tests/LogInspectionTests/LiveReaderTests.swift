import Foundation
import Glibc
import RecordLog
import Synchronization
import Testing
import TestSupport

@testable import LogInspection

/// Readers beside a live writer in another process — `recordlog-demo` appending durably, batch
/// after batch, rolling its segment — never report false corruption: `verify`, read-only opens,
/// replay opens and `follow` see the writer's tail as a tail, and the follower misses nothing.
@Suite(.serialized) struct LiveReaderTests {
    static let zone = "demo"
    /// Rounds of verify + read-only open + replay open while the writer runs: this many, or as
    /// many as fit in `roundsBudget` — verify reads the whole store, which keeps growing, so on a
    /// slow machine a round takes longer and longer. (The budget bounds the test's length; it
    /// asserts nothing.)
    static let maxRounds = 300
    static let roundsBudget: Duration = .seconds(40)
    /// How long a wait for the writer's records may take before the test gives up: a guard
    /// against a writer that stopped, not a measure of speed. It is long because a full run on
    /// two cores beside other work has starved the writer process for over a minute.
    static let patience: Duration = .seconds(300)
    /// Small segments, so the writer rolls many times during the rounds.
    static let segmentBytes = 128 << 10

    @Test("verify, read-only opens, replay opens and a follower beside a live writer process never see corruption or a gap",
          .timeLimit(.minutes(10)))
    func readersBesideLiveWriterProcess() async throws {
        let store = Self.temporaryStore("live-readers")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let writer = try Self.startWriter(store: store, batchSize: 5)
        defer { Self.stop(writer) }
        try await Self.waitForData(store: store, writer: writer, atLeast: 200)

        // The follower starts at the zone's end now; everything appended from here on must reach it.
        let follower = try LogFollower(store: store, zone: Self.zone, pollInterval: .milliseconds(5))
        let startOffset = try #require(follower.startOffsets[Self.zone])
        let followed = Followed()
        let following = Task {
            do {
                for try await record in follower {
                    followed.add(offset: record.record.offset, key: record.record.keyString)
                }
            } catch {
                followed.fail(error)
            }
        }
        defer { following.cancel() }

        var failures: [String] = []
        var liveTailRounds = 0
        var preallocatedRounds = 0
        var lastEnd: Int64 = 0
        var firstSegments = 0
        let began = ContinuousClock.now
        var rounds = 0
        while rounds < Self.maxRounds, ContinuousClock.now - began < Self.roundsBudget, !Task.isCancelled {
            let round = rounds
            rounds += 1
            // verify: a live writer's tail is a warning, never corruption or a torn tail.
            do {
                let report = try Verify.run(InspectTarget(path: store))
                if report.status != .clean {
                    let errors = report.problems.filter(\.isError)
                    failures.append(
                        "round \(round): verify \(report.status), \(errors.count) errors: "
                            + errors.prefix(3).map { $0.text() }.joined(separator: " | "))
                }
                if report.problems.contains(where: { $0.kind == .liveTail }) { liveTailRounds += 1 }
                if report.problems.contains(where: { $0.kind == .preallocated }) { preallocatedRounds += 1 }
            } catch {
                failures.append("round \(round): verify threw \(error)")
            }
            // A read-only open of the log: never throws, its end never goes back, its tail reads.
            do {
                let log = try Log(directory: store, options: LogOptions(readOnly: true))
                defer { try? log.close() }
                let partition = try log.partition(named: Self.zone)
                let end = partition.endOffset
                if round == 0 { firstSegments = partition.segments.count }
                if end < lastEnd { failures.append("round \(round): read-only open's end \(end) is below an earlier one, \(lastEnd)") }
                lastEnd = max(lastEnd, end)
                let tail = try partition.records(from: max(partition.startOffset, end - 20), to: end)
                if let wrong = tail.first(where: { $0.keyString != "note-\($0.offset)" }) {
                    failures.append("round \(round): read-only open: offset \(wrong.offset) has key \(wrong.keyString ?? "nil")")
                }
            } catch {
                failures.append("round \(round): read-only open threw \(error)")
            }
            // A replay open, a plan to the zone's end and a read of its last records.
            do {
                let replay = try ReplayStore(directory: store)
                defer { replay.close() }
                let partition = try replay.partition(Self.zone)
                let end = partition.endOffset
                let plan = try replay.plan(zone: Self.zone, at: .offset(end))
                if plan.cuts.map(\.end) != [end] { failures.append("round \(round): replay plan to \(end) cut at \(plan.cuts.map(\.end))") }
                let tail = try partition.records(from: max(partition.startOffset, end - 20), to: end)
                if tail.count != Int(min(20, end - partition.startOffset)) {
                    failures.append("round \(round): replay read \(tail.count) records of the last \(min(20, end - partition.startOffset))")
                }
            } catch {
                failures.append("round \(round): replay open or read threw \(error)")
            }
        }
        let elapsed = ContinuousClock.now - began
        let stillRunning = writer.isRunning

        // Stop the writer, then let the follower catch up with the zone's final end.
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let final = try Log(directory: store, options: LogOptions(readOnly: true))
        let finalEnd = try final.partition(named: Self.zone).endOffset
        let segmentCount = try final.partition(named: Self.zone).segments.count
        try final.close()
        let deadline = ContinuousClock.now + Self.patience
        while followed.count < Int(finalEnd - startOffset), followed.error == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        following.cancel()
        await following.value

        let summary = "\(rounds) rounds in \(elapsed), offsets \(startOffset)..<\(finalEnd) followed, "
            + "segments \(firstSegments) → \(segmentCount), live-tail warnings in \(liveTailRounds) rounds, "
            + "preallocated warnings in \(preallocatedRounds) rounds"
        print("LiveReaderTests: \(summary)")
        #expect(stillRunning, "the writer must still be appending when the rounds end: \(summary)")
        #expect(segmentCount > firstSegments, "the writer's segment must roll during the rounds: \(summary)")
        #expect(
            failures.count == 0,
            "\(failures.count) failures (\(summary)); the first ones: \(failures.prefix(5).joined(separator: "\n"))")
        #expect(followed.error == nil, "the follower threw: \(String(describing: followed.error))")
        let offsets = followed.offsets
        #expect(finalEnd > startOffset, "nothing was appended while following: \(summary)")
        if offsets != Array(startOffset..<finalEnd) {
            let expected = Set(startOffset..<finalEnd)
            let missing = expected.subtracting(offsets).sorted()
            let duplicates = Dictionary(grouping: offsets, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
            let outOfOrder = zip(offsets, offsets.dropFirst()).first { $0.1 <= $0.0 }
            let extra = offsets.filter { !expected.contains($0) }
            let message = "the follower yielded \(offsets.count) records, not exactly \(startOffset)..<\(finalEnd): "
                + "\(missing.count) missing (first \(missing.prefix(10))), duplicates \(duplicates.prefix(10)), "
                + "first out of order \(String(describing: outOfOrder)), extra \(extra.prefix(10))"
            Issue.record("\(message)")
        }
        #expect(followed.wrongKeys.isEmpty, "records whose key is not note-<offset>: \(followed.wrongKeys.prefix(10))")
    }

    @Test("after the writer process is killed mid-stream, a writer's open loses nothing acknowledged and verify is clean after its close",
          .timeLimit(.minutes(10)))
    func writerOpenAfterKill() async throws {
        let store = Self.temporaryStore("live-killed")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let writer = try Self.startWriter(store: store, batchSize: 3)
        defer { Self.stop(writer) }
        try await Self.waitForData(store: store, writer: writer, atLeast: 1_000)
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(writer.terminationReason == .uncaughtSignal)

        // What the killed writer made durable — and so could have acknowledged.
        let directory = try Self.zoneDirectory(store: store)
        let mark = try #require(DurableEnd.read(partitionDirectory: directory), "the writer publishes a durable-end mark")
        let durable = StoreCheck.durableOffset(store: store, partitionDirectory: directory)

        let log = try Log(directory: store)
        let report = log.recoveryReport
        let partition = try log.partition(named: Self.zone)
        #expect(partition.endOffset >= durable, "the open lost acknowledged offsets: it ends at \(partition.endOffset), durable \(durable)")
        for tail in report.truncatedTails {
            // A torn tail may only be cut beyond the durable point: in the mark's segment past its
            // position, or in a later segment.
            let base = try #require(SegmentFile.baseOffset(ofFileName: URL(fileURLWithPath: tail.file).lastPathComponent))
            #expect(
                base > mark.segmentBase || (base == mark.segmentBase && tail.position >= mark.position),
                "a torn tail cut inside acknowledged data: \(tail), durable-end mark \(mark)")
        }
        let records = try partition.records(from: partition.startOffset, to: partition.endOffset)
        #expect(records.map(\.offset) == Array(partition.startOffset..<partition.endOffset))
        #expect(records.allSatisfy { $0.keyString == "note-\($0.offset)" })
        try log.close()

        let verified = try Verify.run(InspectTarget(path: store))
        #expect(
            verified.status == .clean,
            "verify after the writer's close: \(verified.problems.count) problems, \(verified.problems.prefix(5).map { $0.text() })")
        print("LiveReaderTests: killed at \(partition.endOffset) (durable \(durable)); recovery: "
            + "\(report.truncatedTails.count) torn tails, \(report.trimmedPreallocations.count) trimmed preallocations")
    }

    // MARK: - Helpers

    /// What the follower yielded, shared between its task and the test.
    final class Followed: Sendable {
        private struct State {
            var offsets: [Int64] = []
            var wrongKeys: [String] = []
            var error: (any Error)?
        }
        private let state = Mutex(State())

        func add(offset: Int64, key: String?) {
            state.withLock { state in
                state.offsets.append(offset)
                if key != "note-\(offset)" { state.wrongKeys.append("\(offset): \(key ?? "nil")") }
            }
        }
        func fail(_ error: any Error) { state.withLock { $0.error = error } }
        var offsets: [Int64] { state.withLock { $0.offsets } }
        var count: Int { state.withLock { $0.offsets.count } }
        var wrongKeys: [String] { state.withLock { $0.wrongKeys } }
        var error: (any Error)? { state.withLock { $0.error } }
    }

    static func temporaryStore(_ prefix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    }

    /// Starts `recordlog-demo` appending (far more events than the test lasts) in durable batches.
    static func startWriter(store: String, batchSize: Int) throws -> Process {
        let executable = try #require(ChildProcess.builtExecutable("recordlog-demo"), "recordlog-demo must be built with the tests")
        return try ChildProcess.start(
            executable,
            ["--store", store, "--events", "2000000", "--batch-size", "\(batchSize)", "--segment-bytes", "\(segmentBytes)"])
    }

    /// Kills the writer if it still runs, and reaps it.
    static func stop(_ writer: Process) {
        if writer.isRunning { kill(writer.processIdentifier, SIGKILL) }
        writer.waitUntilExit()
    }

    /// Polls until zone "demo" holds at least `count` records, by read-only opens.
    static func waitForData(store: String, writer: Process, atLeast count: Int64) async throws {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            try #require(writer.isRunning, "recordlog-demo exited early with status \(writer.terminationStatus)")
            if FileManager.default.fileExists(atPath: store + "/recordlog.meta"),
                let log = try? Log(directory: store, options: LogOptions(readOnly: true))
            {
                let end = (try? log.partition(named: zone))?.endOffset ?? 0
                try? log.close()
                if end >= count { return }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("zone \(zone) did not reach \(count) records within \(patience)")
        throw CancellationError()
    }

    /// The directory of zone "demo" in `store`.
    static func zoneDirectory(store: String) throws -> String {
        let target = try InspectTarget(path: store)
        return try #require(target.zones.first { $0.name == zone }?.directory)
    }
}
