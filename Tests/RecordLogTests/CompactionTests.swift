import Foundation
import Testing
import TestSupport
@testable import RecordLog

/// Kafka's key compaction on a partition's segments: what is kept, what offsets read, what a
/// reopen finds, and that kafka-python still reads every file.
@Suite struct CompactionTests {
    /// `count` events over `keys` keys, each rewritten many times; every `deleteEvery`-th event
    /// deletes its key, every 17th has no key.
    static func rewrites(_ count: Int, keys: Int, deleteEvery: Int = 9, time: Int64 = Sample.baseTime) -> [Event] {
        (0..<count).map { index in
            var random = SeededGenerator(seed: UInt64(index) &+ 99)
            let text = (0..<60).map { _ in "abcdefghij klmnop".randomElement(using: &random)! }
            var event = Event(
                key: Array("k\(index % keys)".utf8), value: Array(String(text).utf8),
                headers: [LogHeader(key: "event", string: "save")], timestamp: time + Int64(index))
            if index % deleteEvery == deleteEvery - 1 { event.value = nil }
            if index % 17 == 16 { event.key = nil }
            return event
        }
    }

    /// What compaction keeps of `events` written from offset 0: each key's latest event (unless
    /// it is a tombstone stamped before `cutoff`), and every event without a key.
    static func survivors(_ events: [Event], tombstoneCutoff cutoff: Int64 = .min) -> [(offset: Int64, event: Event)] {
        var latest: [[UInt8]: Int] = [:]
        for (index, event) in events.enumerated() { if let key = event.key { latest[key] = index } }
        return events.enumerated().compactMap { index, event in
            guard let key = event.key else { return (Int64(index), event) }
            guard latest[key] == index else { return nil }
            if event.value == nil, event.timestamp < cutoff { return nil }
            return (Int64(index), event)
        }
    }

    static func read(_ partition: Partition, from offset: Int64) throws -> [(offset: Int64, event: Event)] {
        try partition.records(from: offset).map { ($0.offset, $0.event) }
    }

    static func same(_ a: [(offset: Int64, event: Event)], _ b: [(offset: Int64, event: Event)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.offset == $1.offset && $0.event == $1.event }
    }

    @Test("compaction keeps each key's latest event at its offset; a read from any offset, removed ones included, continues at the next record")
    func keepsLatestPerKey() async throws {
        try await withStorePath { store in
            let events = Self.rewrites(1200, keys: 40)
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 8192))
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(events, batchSize: 7)
            let segmentsBefore = partition.segments.count
            let report = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            let expected = Self.survivors(events)
            #expect(Self.same(try Self.read(partition, from: 0), expected))
            for offset in stride(from: Int64(0), through: 1200, by: 37) {
                #expect(Self.same(try Self.read(partition, from: offset), expected.filter { $0.offset >= offset }))
            }
            #expect(report.recordsRead == 1200 && report.recordsRemoved == 1200 - expected.count)
            #expect(report.bytesAfter < report.bytesBefore / 4)
            #expect(partition.segments.count < segmentsBefore)
            #expect(partition.endOffset == 1200 && partition.expiryOffset == 0)
            // Appends go on at the end, and a second compaction changes nothing more.
            let more = Self.rewrites(100, keys: 40, time: Sample.baseTime + 10_000)
            try await partition.append(more, batchSize: 5)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            let all = events + more
            #expect(Self.same(try Self.read(partition, from: 0), Self.survivors(all)))
            try log.close()

            let reopened = try Log(directory: store, options: fastOptions(segmentBytes: 8192))
            #expect(reopened.recoveryReport.isClean)
            #expect(Self.same(try Self.read(try reopened.partition(named: "Notes"), from: 0), Self.survivors(all)))
            try reopened.close()
        }
    }

    /// Keys 0–99 saved (at 1000), then all deleted (at 2000), then keys 100–109 saved (at 3000):
    /// everything before the last ten saves goes once the deletes expire.
    static let savedDeletedSaved: [Event] = {
        var events = (0..<100).map { Event(key: Array("k\($0)".utf8), value: Array(repeating: 65, count: 50), timestamp: 1000) }
        events += (0..<100).map { Event(key: Array("k\($0)".utf8), value: nil, timestamp: 2000) }
        events += (100..<110).map { Event(key: Array("k\($0)".utf8), value: Array(repeating: 66, count: 50), timestamp: 3000) }
        return events
    }()

    @Test("tombstones past their retention are dropped, the expiry offset moves past the last, and emptied leading segments go")
    func dropsTombstonesAndAdvancesStart() async throws {
        try await withStorePath { store in
            let options = fastOptions(segmentBytes: 4096)
            let log = try Log(directory: store, options: options)
            let partition = try log.createPartition(named: "Notes")
            let events = Self.savedDeletedSaved
            try await partition.append(events, batchSize: 4)
            // Deletes stamped 2000 are kept while the clock says 2000 + retention or less.
            let kept = try log.createPartition(named: "Kept")
            try await kept.append(events, batchSize: 4)
            let report = try kept.compact(CompactionOptions(tombstoneRetentionMilliseconds: 500, now: 2400))
            #expect(report.tombstonesDropped == 0 && kept.expiryOffset == 0)
            #expect(Self.same(try Self.read(kept, from: 0), Self.survivors(events)))

            let dropped = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 500, now: 2600))
            #expect(dropped.tombstonesDropped == 100)
            #expect(partition.expiryOffset == 200)
            #expect(Self.same(try Self.read(partition, from: partition.startOffset), Self.survivors(events, tombstoneCutoff: 2100)))
            #expect(partition.startOffset > 0 && partition.startOffset <= 200)
            #expect(throws: LogError.self) { try partition.records(from: 0) }
            let start = partition.startOffset
            try log.close()

            let reopened = try Log(directory: store, options: options)
            let again = try reopened.partition(named: "Notes")
            #expect(again.startOffset == start && again.expiryOffset == 200 && again.endOffset == 210)
            #expect(Self.same(try Self.read(again, from: start), Self.survivors(events, tombstoneCutoff: 2100)))
            try reopened.close()
        }
    }

    @Test("a partition whose every record is removed keeps its end offset and appends after it")
    func everythingRemoved() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 2048))
            let partition = try log.createPartition(named: "Notes")
            var events = (0..<60).map { Event(key: Array("k\($0 % 3)".utf8), value: [1, 2, 3], timestamp: 1000) }
            events += (0..<3).map { Event(key: Array("k\($0)".utf8), value: nil, timestamp: 1000) }
            try await partition.append(events, batchSize: 2)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: 0, now: 5000))
            #expect(partition.startOffset == 63 && partition.endOffset == 63 && partition.expiryOffset == 63)
            #expect(try partition.records(from: 63).isEmpty)
            try await partition.append([Event(key: Array("k9".utf8), value: [9], timestamp: 6000)], batchSize: 1)
            try log.close()
            let reopened = try Log(directory: store, options: fastOptions(segmentBytes: 2048))
            #expect(try reopened.partition(named: "Notes").records(from: 63).map(\.offset) == [63])
            try reopened.close()
        }
    }

    @Test("a memory partition compacts by the same rules")
    func memoryPartition() async throws {
        let events = Self.rewrites(500, keys: 20)
        let log = MemoryLog(options: LogOptions())
        let partition = try log.createPartition(named: "Notes")
        for start in stride(from: 0, to: events.count, by: 6) {
            _ = try await partition.append(RecordBatchBuilder(events[start..<min(start + 6, events.count)]))
        }
        _ = try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
        // Batches left empty at the start go, and the start with them.
        #expect(partition.startOffset > 0)
        let read = try partition.records(from: partition.startOffset, to: nil, limit: .max).map { ($0.offset, $0.event) }
        #expect(Self.same(read, Self.survivors(events)))
        let middle = try partition.records(from: 250, to: nil, limit: .max).map { ($0.offset, $0.event) }
        #expect(Self.same(middle, Self.survivors(events).filter { $0.offset >= 250 }))
    }

    @Test(
        "kafka-python reads compacted segments, every CRC valid",
        KafkaPythonInteropTests.needsKafkaPython)
    func kafkaPythonReadsCompactedSegments() async throws {
        try await withStorePath { store in
            let events = Self.rewrites(900, keys: 25)
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 8192))
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(events, batchSize: 3)
            try partition.compact(CompactionOptions(tombstoneRetentionMilliseconds: .max))
            let ours = try partition.records(from: 0).map(KafkaPythonInteropTests.expected)
            try log.close()
            let script = repositoryRoot.appendingPathComponent("Tools/fixtures/kafka-python-verify.py").path
            let result = try await KafkaPythonInteropTests.run(["python3", script, store + "/zones"])
            #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
            let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            let records = try lines.dropLast().map {
                try JSONDecoder().decode(KafkaPythonInteropTests.ExpectedRecord.self, from: Data($0.utf8))
            }
            #expect(records == ours)
            #expect(records.count == Self.survivors(events).count)
        }
    }
}
