import Foundation
import Testing
import TestSupport

@testable import RecordLog

/// Readers beside a writer (FORMAT.md §7.2): a read-only log sees exactly what the writer has
/// made durable — whole batches up to its durable-end mark — and catches up with `refresh()`.
@Suite struct ReaderBesideWriterTests {
    @Test("a reader sees no batch that is written but not yet synced, and sees it once it is")
    func unsyncedBatchesAreInvisible() async throws {
        try await withStorePath { store in
            let writer = try Log(directory: store, options: fastOptions())
            let notes = try writer.createPartition(named: "Notes")
            let events = Sample.events(0..<9)
            _ = try await notes.append(Array(events[0..<3]), batchSize: 3)
            try writer.sync()
            _ = try await notes.append(Array(events[3..<9]), batchSize: 3)  // written, not synced

            let reader = try Log(directory: store, options: fastOptions(readOnly: true))
            let seen = try reader.partition(named: "Notes")
            #expect(seen.endOffset == 3)
            #expect(try seen.events() == Array(events[0..<3]))
            #expect(try reader.refresh() == false)

            try writer.sync()
            #expect(try reader.refresh())
            #expect(try seen.events() == events)
            try writer.close()
            try reader.close()
        }
    }

    @Test("a reader follows the writer across segment rolls and new partitions")
    func followsRollsAndNewPartitions() async throws {
        try await withStorePath { store in
            let writer = try Log(directory: store, options: LogOptions(segmentBytes: 2048))
            let notes = try writer.createPartition(named: "Notes")
            let events = Sample.events(0..<120, valueBytes: 60)
            _ = try await notes.append(Array(events[0..<10]), batchSize: 5)
            let reader = try Log(directory: store, options: LogOptions(readOnly: true))
            let seen = try reader.partition(named: "Notes")
            #expect(seen.endOffset == 10)

            _ = try await notes.append(Array(events[10..<120]), batchSize: 5)
            #expect(notes.segments.count > 2)
            _ = try await writer.createPartition(named: "Later").append(RecordBatchBuilder(events[0..<2]))
            #expect(try reader.refresh())
            #expect(try seen.events() == events)
            #expect(seen.segments.map(\.baseOffset) == notes.segments.map(\.baseOffset))
            #expect(try reader.partition(named: "Later").events() == Array(events[0..<2]))

            try writer.deletePartition(named: "Later")
            #expect(try reader.refresh())
            #expect(reader.partitionNames == ["Notes"])
            try writer.close()
        }
    }

    @Test("a damaged durable-end mark is detected and ignored: the reader falls back to the log's whole batches")
    func damagedMarkIgnored() async throws {
        try await withStorePath { store in
            let writer = try Log(directory: store, options: LogOptions())
            let events = Sample.events(0..<6)
            _ = try await writer.createPartition(named: "Notes").append(events, batchSize: 2)
            try writer.close()
            let markPath = try #require(
                try FileManager.default.subpathsOfDirectory(atPath: store).first { $0.hasSuffix("/durable-end") })
            try Data(repeating: 0xA5, count: 1024).write(to: URL(fileURLWithPath: store + "/" + markPath))

            let reader = try Log(directory: store, options: LogOptions(readOnly: true))
            #expect(try reader.partition(named: "Notes").events() == events)
            #expect(try reader.refresh() == false)
            // The next writer heals the mark; readers trust it again.
            let next = try Log(directory: store, options: LogOptions())
            _ = try await next.append(RecordBatchBuilder(Sample.events(6..<8)), to: "Notes")
            #expect(DurableEnd.read(partitionDirectory: try next.partition(named: "Notes").directory)?.nextOffset == 8)
            #expect(try reader.refresh())
            #expect(try reader.partition(named: "Notes").endOffset == 8)
            try next.close()
        }
    }

    /// The offsets `recordlog-demo --acknowledgements` has reported durable so far.
    private func acknowledged(_ path: String) -> [Range<Int64>] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ").compactMap { Int64($0) }
            return parts.count == 2 ? parts[0]..<parts[1] : nil
        }
    }

    @Test("readers beside a writer process see whole acknowledged commits only; after a kill -9 the next writer recovers")
    func readersBesideWriterProcess() async throws {
        guard let demo = ChildProcess.builtExecutable("recordlog-demo") else {
            Issue.record("recordlog-demo must be built with the tests")
            return
        }
        try await withStorePath { store in
            let acks = store + "-acks"
            defer { try? FileManager.default.removeItem(atPath: acks) }
            let batch: Int64 = 7
            let writer = try ChildProcess.start(
                demo,
                // More commits than it can make before it is killed, all of `batch` events.
                ["--store", store, "--events", "\(batch * 1_000_000)", "--batch-size", "\(batch)", "--segment-bytes", "65536",
                    "--acknowledgements", acks])
            defer { if writer.isRunning { kill(writer.processIdentifier, SIGKILL); writer.waitUntilExit() } }
            // Wait for the store and a first acknowledged commit (the writer's pace, not a timer).
            while acknowledged(acks).isEmpty { try await Task.sleep(for: .milliseconds(5)) }

            var follower: Log? = nil
            var previousEnd: Int64 = 0
            for round in 0..<20 {
                let before = acknowledged(acks).last?.upperBound ?? 0
                // Every other round a fresh open, else the long-lived reader's refresh.
                let log: Log
                if round % 2 == 0 {
                    log = try Log(directory: store, options: LogOptions(readOnly: true))
                } else {
                    if follower == nil { follower = try Log(directory: store, options: LogOptions(readOnly: true)) }
                    log = try #require(follower)
                    try log.refresh()
                }
                let zone = try log.partition(named: "demo")
                let end = zone.endOffset
                let after = acknowledged(acks).last?.upperBound ?? 0
                // A prefix of whole commits: every acknowledged one before the look, none beyond
                // the commit in flight (at most one batch past what was acknowledged after it).
                #expect(end % batch == 0, "end \(end) is inside a commit")
                #expect(end >= before, "acknowledged \(before) but the reader sees \(end)")
                #expect(end <= after + batch, "the reader sees \(end), beyond the commit in flight after \(after)")
                if round % 2 == 1 { #expect(end >= previousEnd); previousEnd = end }
                let records = try zone.records(from: max(0, end - 3 * batch))
                #expect(records.last.map { $0.offset + 1 } == (end > 0 ? end : nil))
                for record in records { #expect(record.keyString == "note-\(record.offset)") }
                if round % 2 == 0 { try log.close() }
            }

            kill(writer.processIdentifier, SIGKILL)
            await ChildProcess.exit(of: writer)
            let final = acknowledged(acks).last?.upperBound ?? 0
            let reader = try Log(directory: store, options: LogOptions(readOnly: true))
            let end = try reader.partition(named: "demo").endOffset
            #expect(end % batch == 0 && end >= final && end <= final + batch)
            try follower?.refresh()
            #expect(try follower?.partition(named: "demo").endOffset == end)

            // The next writer recovers the killed one's store and goes on.
            let next = try await ChildProcess.run(demo, ["--store", store, "--events", "5", "--batch-size", "5", "--lock-timeout", "10"])
            #expect(next.status == 0, "\(next.errorText)")
            #expect(try reader.refresh())
            let grown = try reader.partition(named: "demo")
            #expect(grown.endOffset >= end + 5)
            for record in try grown.records(from: end) { #expect(record.keyString == "note-\(record.offset)") }
        }
    }
}
