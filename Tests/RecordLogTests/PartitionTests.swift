import Foundation
import Testing
@testable import RecordLog
import TestSupport
import StorageKit

@Suite struct PartitionTests {
    @Test("appends get dense offsets from 0 and read back from any offset")
    func denseOffsetsAndReads() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            let events = Sample.events(0..<30)
            var ranges: [Range<Int64>] = []
            var start = 0
            for size in [1, 5, 3, 10, 1, 10] {
                ranges.append(try await notes.append(RecordBatchBuilder(events[start..<(start + size)])))
                start += size
            }
            #expect(ranges == [0..<1, 1..<6, 6..<9, 9..<19, 19..<20, 20..<30])
            #expect(notes.startOffset == 0)
            #expect(notes.endOffset == 30)
            for offset in 0...30 {
                let records = try notes.records(from: Int64(offset))
                #expect(records.map(\.event) == Array(events[offset...]), "from \(offset)")
                #expect(records.map(\.offset) == Array(Int64(offset)..<30))
            }
            #expect(try notes.records(from: 4, to: 12).map(\.offset) == Array(4..<12))
            #expect(try notes.records(from: 4, limit: 3).map(\.offset) == [4, 5, 6])
            #expect(try notes.records(from: 4, to: 100).map(\.offset) == Array(4..<30))
            try log.close()
        }
    }

    @Test("an empty partition has no records and no timestamps")
    func emptyPartition() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            #expect(notes.startOffset == 0 && notes.endOffset == 0)
            #expect(notes.firstTimestamp == nil && notes.lastTimestamp == nil)
            #expect(try notes.records(from: 0).isEmpty)
            #expect(try notes.batches(from: 0).isEmpty)
            #expect(try notes.offset(forTimestamp: 0) == 0)
            try log.close()
        }
    }

    @Test("offsets outside start...end are out of range")
    func outOfRange() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            try await notes.append(Sample.events(0..<3), batchSize: 3)
            #expect(throws: LogError.offsetOutOfRange(offset: 4, start: 0, end: 3)) { try notes.batches(from: 4) }
            #expect(throws: LogError.offsetOutOfRange(offset: -1, start: 0, end: 3)) { try notes.batches(from: -1) }
            #expect(throws: LogError.offsetOutOfRange(offset: -1, start: 0, end: 3)) { try notes.records(from: -1) }
            #expect(throws: LogError.offsetOutOfRange(offset: 4, start: 0, end: 3)) { try notes.records(from: 4) }
            #expect(throws: LogError.offsetOutOfRange(offset: .max, start: 0, end: 3)) { try notes.batches(from: .max) }
            #expect(try notes.records(from: 3).isEmpty, "the end offset itself is a valid, empty position")
            try log.close()
        }
    }

    @Test("first and last timestamps follow the batches, including non-monotonic records")
    func timestamps() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            let times: [Int64] = [500, 100, 900, 300, 700, 200]
            let events = times.enumerated().map { Event(key: Array("k\($0.offset)".utf8), value: [1], timestamp: $0.element) }
            try await notes.append(events, batchSize: 2)
            #expect(notes.firstTimestamp == 500, "the first batch's first timestamp")
            #expect(notes.lastTimestamp == 900, "the largest record timestamp")
            try log.close()
        }
    }

    @Test("reopening gives the same records, offsets and timestamps")
    func reopen() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<100)
            try await makeStore(at: store, options: fastOptions(), events: events, batchSize: 7)
            let log = try Log(directory: store, options: fastOptions())
            #expect(log.recoveryReport.isClean)
            #expect(log.partitionNames == ["Notes"])
            let notes = try log.partition(named: "Notes")
            #expect(notes.endOffset == 100)
            #expect(try notes.events() == events)
            #expect(notes.firstTimestamp == events.first?.timestamp)
            #expect(notes.lastTimestamp == events.map(\.timestamp).max())
            #expect(try await notes.append(RecordBatchBuilder(Sample.events(100..<101))) == 100..<101)
            try log.close()
        }
    }

    @Test("batches(from:maxBytes:) returns whole, contiguous batches holding the offset, within the budget")
    func batchesWithBudget() async throws {
        try await withStorePath { store in
            // Batches of varied sizes, in a segment indexed every 200 bytes.
            let log = try Log(directory: store, options: fastOptions(indexIntervalBytes: 200))
            let notes = try log.createPartition(named: "Notes")
            let events = Sample.events(0..<120, valueBytes: 60)
            var start = 0, size = 1
            while start < events.count {
                _ = try await notes.append(RecordBatchBuilder(events[start..<min(start + size, events.count)]))
                start += size
                size = size % 6 + 1
            }
            let segmentSize = Int(try #require(notes.segments.last).size)
            for maxBytes in [1, 12, 61, 100, 250, 500, 999, 1_000, 2_000, 4_096, segmentSize - 1, segmentSize, 1 << 20] {
                for offset in Int64(0)..<120 {
                    let batches: [RecordBatch]
                    do {
                        batches = try notes.batches(from: offset, maxBytes: maxBytes)
                    } catch {
                        Issue.record("batches(from: \(offset), maxBytes: \(maxBytes)) threw \(error)")
                        continue
                    }
                    guard let first = batches.first else {
                        Issue.record("no batch from \(offset), maxBytes \(maxBytes)")
                        continue
                    }
                    #expect(first.header.baseOffset <= offset && first.header.lastOffset >= offset)
                    for (earlier, later) in zip(batches, batches.dropFirst()) {
                        #expect(later.header.baseOffset == earlier.header.lastOffset + 1)
                    }
                    let total = batches.map(\.header.totalSize).reduce(0, +)
                    #expect(batches.count == 1 || total <= maxBytes, "from \(offset), maxBytes \(maxBytes): \(total) bytes")
                }
            }
            try log.close()
        }
    }

    /// Uncompressed batches of one record, all of the same size; returns that size.
    static func appendEqualBatches(to partition: Partition, count: Int, valueBytes: Int) async throws -> Int {
        var size = 0
        for index in 0..<count {
            var builder = RecordBatchBuilder()
            builder.append(key: "k", value: [UInt8](repeating: UInt8(index % 256), count: valueBytes), timestamp: Int64(index))
            let encoded = try builder.encode(compression: .none)
            size = encoded.bytes.count
            _ = try await partition.append(encoded)
        }
        return size
    }

    @Test("a read budget that ends a few bytes into a batch still returns the whole batches before it")
    func budgetEndingInsideABatchHeader() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            let size = try await Self.appendEqualBatches(to: notes, count: 20, valueBytes: 100)
            for extra in [0, 1, 5, 11, 12, 13, 60] {
                #expect(try notes.batches(from: 0, maxBytes: 10 * size + extra).count == 10, "maxBytes \(10 * size + extra)")
            }
            try log.close()
        }
    }

    @Test("reading a healthy segment larger than 4 MiB from offset 0 succeeds")
    func readLargeSegment() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            // A batch size that puts records(from:)'s 4 MiB read boundary 5 bytes into a batch.
            var valueBytes = 2_000
            while (4 << 20) % (valueBytes + 71) != 5 { valueBytes += 1 }
            let count = (4 << 20) / (valueBytes + 71) + 10
            let size = try await Self.appendEqualBatches(to: notes, count: count, valueBytes: valueBytes)
            try #require(size == valueBytes + 71)
            #expect(try notes.records(from: 0).count == count)
            try log.close()
        }
    }

    @Test("segments roll at segmentBytes, are named by 20-digit base offsets, and reads cross them")
    func segmentRoll() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<400, valueBytes: 80)
            try await makeStore(at: store, options: fastOptions(segmentBytes: 4096), events: events, batchSize: 8)
            let directory = try partitionDirectory(store)
            let names = try listDirectory(directory)
            let logs = names.filter { $0.hasSuffix(".log") }
            #expect(logs.count >= 4)
            for name in logs {
                let stem = String(name.dropLast(4))
                #expect(stem.count == 20 && stem.allSatisfy(\.isNumber), "\(name)")
                #expect(names.contains(stem + ".index") && names.contains(stem + ".timeindex"), "indexes of \(name)")
                let size = try readBytes(directory + "/" + name).count
                #expect(size <= 4096, "\(name) is \(size) bytes")
            }

            let log = try Log(directory: store, options: fastOptions(segmentBytes: 4096))
            let notes = try log.partition(named: "Notes")
            let segments = notes.segments
            #expect(segments.map { SegmentName.stem($0.baseOffset) + ".log" } == logs)
            #expect(segments.first?.baseOffset == 0)
            for (earlier, later) in zip(segments, segments.dropFirst()) { #expect(later.baseOffset == earlier.nextOffset) }
            #expect(segments.last?.nextOffset == 400)
            // Read from just before, at and after every boundary.
            for segment in segments.dropFirst() {
                for offset in [segment.baseOffset - 1, segment.baseOffset, segment.baseOffset + 1] {
                    #expect(try notes.events(from: offset) == Array(events[Int(offset)...]), "from \(offset)")
                }
            }
            #expect(try notes.events() == events)
            try log.close()
        }
    }

    @Test("a segment rolls before a relative offset would overflow Int32")
    func rollBeforeRelativeOffsetOverflow() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            // A batch whose offsets leave a gap, as compaction leaves them: one record at delta Int32.max - 10.
            var records: [UInt8] = []
            let key = Array("gap".utf8)
            var record: [UInt8] = [0]
            record.appendVarlong(0)
            record.appendVarint(Int32.max - 10)
            record.appendVarint(Int32(key.count))
            record += key
            record.appendVarint(-1)
            record.appendVarint(0)
            records.appendVarint(Int32(record.count))
            records += record
            var bytes: [UInt8] = []
            bytes.appendInteger(Int64(0))
            bytes.appendInteger(Int32(49 + records.count))
            bytes.appendInteger(Int32(0))
            bytes.appendInteger(Int8(2))
            bytes.appendInteger(UInt32(0))
            bytes.appendInteger(Int16(0))
            bytes.appendInteger(Int32.max - 10)
            bytes.appendInteger(Int64(1_000))
            bytes.appendInteger(Int64(1_000))
            bytes.appendInteger(Int64(-1))
            bytes.appendInteger(Int16(-1))
            bytes.appendInteger(Int32(-1))
            bytes.appendInteger(Int32(1))
            bytes += records
            bytes.setInteger(CRC32C.checksum(Array(bytes[21...])), at: 17)
            let gapped = EncodedBatch(bytes: bytes, recordCount: 1, firstTimestamp: 1_000, maxTimestamp: 1_000, uncompressedSize: records.count)
            #expect(try await notes.append(gapped) == 0..<(Int64(Int32.max) - 9))
            #expect(notes.segments.count == 1)
            let next = try await notes.append(RecordBatchBuilder(Sample.events(0..<20)))
            #expect(next == (Int64(Int32.max) - 9)..<(Int64(Int32.max) + 11))
            #expect(notes.segments.map(\.baseOffset) == [0, Int64(Int32.max) - 9])
            #expect(try notes.records(from: 0, limit: 2).map(\.offset) == [Int64(Int32.max) - 10, Int64(Int32.max) - 9])
            try log.close()
        }
    }

    /// Brute force: the first offset whose record's timestamp is at or after `time`.
    static func expectedOffset(forTimestamp time: Int64, in events: [Event]) -> Int64 {
        Int64(events.firstIndex { $0.timestamp >= time } ?? events.count)
    }

    @Test("offset(forTimestamp:) finds the first record at or after a time, across segments", arguments: [false, true])
    func timeSeek(reopen: Bool) async throws {
        try await withStorePath { store in
            let options = fastOptions(segmentBytes: 4096, indexIntervalBytes: 300)
            let events = Sample.events(0..<300, valueBytes: 60)  // timestamps base + 10 × offset
            try await makeStore(at: store, options: options, events: events, batchSize: 6)
            let log = try Log(directory: store, options: options)
            let notes = try log.partition(named: "Notes")
            #expect(notes.segments.count >= 3)
            if !reopen {
                // The same data appended in this process, indexes in memory only.
                try await log.createPartition(named: "Again").append(events, batchSize: 6)
            }
            let partition = reopen ? notes : try log.partition(named: "Again")
            let base = Sample.baseTime
            #expect(try partition.offset(forTimestamp: base - 1_000_000) == 0, "before the first")
            #expect(try partition.offset(forTimestamp: base + 3_000) == 300, "after the last: endOffset")
            for offset in 0..<300 {
                let time = base + Int64(offset) * 10
                #expect(try partition.offset(forTimestamp: time) == Int64(offset), "exact hit at \(offset)")
                #expect(try partition.offset(forTimestamp: time - 5) == Int64(offset), "between \(offset - 1) and \(offset)")
            }
            try log.close()
        }
    }

    @Test("offset(forTimestamp:) with non-monotonic timestamps returns the first record at or after the time")
    func timeSeekNonMonotonic() async throws {
        try await withStorePath { store in
            let options = fastOptions(segmentBytes: 4096, indexIntervalBytes: 300)
            var random = SeededGenerator(seed: 5)
            let events = Sample.events(0..<300, valueBytes: 60) { offset in
                Sample.baseTime + Int64(offset) * 10 + Int64.random(in: -400...400, using: &random)
            }
            try await makeStore(at: store, options: options, events: events, batchSize: 5)
            let log = try Log(directory: store, options: options)
            let notes = try log.partition(named: "Notes")
            #expect(notes.segments.count >= 3)
            #expect(notes.lastTimestamp == events.map(\.timestamp).max())
            let low = events.map(\.timestamp).min()!, high = events.map(\.timestamp).max()!
            for time in stride(from: low - 7, through: high + 7, by: 7) {
                #expect(try notes.offset(forTimestamp: time) == Self.expectedOffset(forTimestamp: time, in: events), "time \(time)")
            }
            try log.close()
        }
    }

    @Test("concurrent appends with fsync durability all succeed with distinct, dense offsets")
    func concurrentAppends() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store)  // default options: .fsync, group commit
            let notes = try log.createPartition(named: "Notes")
            let tasks = 64, perTask = 3
            let results = try await withThrowingTaskGroup(of: (Int, Range<Int64>).self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var builder = RecordBatchBuilder()
                        for index in 0..<perTask { builder.append(key: "task-\(task)", value: [UInt8(index)], timestamp: Int64(task)) }
                        return (task, try await notes.append(builder))
                    }
                }
                return try await group.reduce(into: [(Int, Range<Int64>)]()) { $0.append($1) }
            }
            #expect(results.count == tasks)
            let sorted = results.map(\.1).sorted { $0.lowerBound < $1.lowerBound }
            #expect(sorted.first?.lowerBound == 0)
            for (earlier, later) in zip(sorted, sorted.dropFirst()) { #expect(later.lowerBound == earlier.upperBound) }
            #expect(sorted.allSatisfy { $0.count == perTask })
            #expect(notes.endOffset == Int64(tasks * perTask))
            // Each task's records sit at the offsets it was given.
            let records = try notes.records(from: 0)
            for (task, range) in results {
                #expect(records[Int(range.lowerBound)..<Int(range.upperBound)].allSatisfy { $0.keyString == "task-\(task)" })
            }
            try log.close()
        }
    }

    @Test("appending is refused after close, for an empty batch, and above maxBatchBytes")
    func refusedAppends() async throws {
        try await withStorePath { store in
            var options = fastOptions()
            options.maxBatchBytes = 2_000
            let log = try Log(directory: store, options: options)
            let notes = try log.createPartition(named: "Notes")
            await #expect(throws: LogError.emptyBatch) { try await notes.append(RecordBatchBuilder()) }
            var big = RecordBatchBuilder()
            var random = SeededGenerator(seed: 1)
            big.append(key: "big", value: random.bytes(5_000), timestamp: 0)
            let encoded = try big.encode()
            await #expect(throws: LogError.batchTooLarge(bytes: encoded.bytes.count, limit: 2_000)) {
                try await notes.append(encoded)
            }
            #expect(notes.endOffset == 0)
            await #expect(throws: LogError.partitionNotFound("Other")) { try await log.append(RecordBatchBuilder(Sample.events(0..<1)), to: "Other") }
            #expect(throws: LogError.partitionNotFound("Other")) { try log.partition(named: "Other") }
            try log.close()
            await #expect(throws: LogError.closed) { try await notes.append(RecordBatchBuilder(Sample.events(0..<1))) }
        }
    }

    @Test("creating an existing zone returns its partition; a deleted zone is gone after reopening")
    func createAndDeleteZones() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            #expect(try log.createPartition(named: "Notes") === notes)
            try await log.createPartition(named: "Trash").append(Sample.events(0..<3), batchSize: 3)
            #expect(log.partitionNames == ["Notes", "Trash"])
            try log.deletePartition(named: "Trash")
            #expect(log.partitionNames == ["Notes"])
            #expect(throws: LogError.partitionNotFound("Trash")) { try log.deletePartition(named: "Trash") }
            try log.close()
            let reopened = try Log(directory: store, options: fastOptions())
            #expect(reopened.partitionNames == ["Notes"])
            #expect(try listDirectory(store + "/zones") == ["Notes"])
            try reopened.close()
        }
    }
}
