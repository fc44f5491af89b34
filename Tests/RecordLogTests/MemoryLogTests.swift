import Foundation
import Testing
@testable import RecordLog
import TestSupport

/// A `MemoryLog` keeps the contract of `LogPartition`/`PartitionedLog` as a `Log` on disk does:
/// the same records, offsets and batch bytes, and the same errors.
struct MemoryLogTests {
    /// Appends the same batches to a file partition and a memory partition, then runs `body`.
    private func withTwins(
        _ events: [Event], batchSize: Int, _ body: (Partition, MemoryPartition) throws -> Void
    ) async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 4096))
            let memory = MemoryLog(options: fastOptions())
            let file = try log.createPartition(named: "Notes")
            let twin = try memory.createPartition(named: "Notes")
            for start in stride(from: 0, to: events.count, by: batchSize) {
                let batch = RecordBatchBuilder(events[start..<min(start + batchSize, events.count)])
                let onDisk = try await file.append(batch)
                #expect(try await twin.append(batch) == onDisk)
            }
            try body(file, twin)
            try log.close()
        }
    }

    @Test("a memory partition reads back what a file partition does: the same batch bytes and records, over any range")
    func sameRecordsAsFiles() async throws {
        try await withTwins(Sample.events(0..<120, valueBytes: 90), batchSize: 17) { file, memory in
            #expect(memory.startOffset == file.startOffset && memory.endOffset == file.endOffset)
            for from in [0, 5, 17, 119, 120] as [Int64] {
                for maxBytes in [0, 1000, .max] {
                    #expect(
                        try memory.batches(from: from, maxBytes: maxBytes).map(\.bytes) == file.batches(from: from, maxBytes: maxBytes).map(\.bytes),
                        "from \(from), \(maxBytes) bytes")
                }
            }
            for (from, to) in [(0, 120), (5, 6), (16, 35), (119, 120), (40, 40), (30, 500)] as [(Int64, Int64)] {
                let expected = try file.records(from: from, to: to)
                #expect(try memory.records(from: from, to: to, limit: .max) == expected, "\(from)..<\(to)")
                var inPlace: [LogRecord] = []
                try memory.forEachRecordInPlace(from: from, to: to, cached: false) { inPlace.append(LogRecord($0)); return true }
                #expect(inPlace == expected, "in place, \(from)..<\(to)")
                var checked: [LogRecord] = []
                try memory.forEachRecordInPlace(from: from, to: to, cachedWith: EveryRecord.self) { record, passed, keeper in
                    #expect(!passed && keeper == nil)
                    checked.append(LogRecord(record))
                    return true
                }
                #expect(checked == expected, "cached, \(from)..<\(to)")
            }
            #expect(try memory.records(from: 3, to: nil, limit: 4) == file.records(from: 3, limit: 4))
            var visited = 0
            try memory.forEachRecord(from: 10, to: nil) { _ in visited += 1; return visited < 3 }
            #expect(visited == 3)
        }
    }

    @Test("an offset outside the partition, a batch over the limit and an append after deletion fail as on disk")
    func sameErrorsAsFiles() async throws {
        try await withTwins(Sample.events(0..<10), batchSize: 4) { file, memory in
            for offset in [-1, 11] as [Int64] {
                #expect(throws: LogError.offsetOutOfRange(offset: offset, start: 0, end: 10)) { try memory.batches(from: offset, maxBytes: 1) }
                #expect(throws: LogError.offsetOutOfRange(offset: offset, start: 0, end: 10)) { try file.batches(from: offset, maxBytes: 1) }
                #expect(throws: LogError.offsetOutOfRange(offset: offset, start: 0, end: 10)) {
                    try memory.forEachRecord(from: offset, to: nil) { _ in true }
                }
            }
        }
        var options = fastOptions()
        options.maxBatchBytes = 1024
        let log = MemoryLog(options: options)
        let notes = try log.createPartition(named: "Notes")
        let large = try RecordBatchBuilder(Sample.events(0..<200, valueBytes: 200)).encode(compression: .none)
        #expect(throws: LogError.batchTooLarge(bytes: large.bytes.count, limit: 1024)) { try notes.appendWithoutWaiting(large) }
        #expect(notes.endOffset == 0)
        let small = try RecordBatchBuilder(Sample.events(0..<2)).encode()
        let pending = try notes.appendWithoutWaiting(small)
        try await pending.durable()
        #expect(pending.offsets == 0..<2)
        try log.deletePartition(named: "Notes")
        #expect(throws: LogError.closed) { try notes.appendWithoutWaiting(small) }
        #expect(throws: LogError.partitionNotFound("Notes")) { try log.partition(named: "Notes") }
        #expect(try log.createPartition(named: "Notes").endOffset == 0, "a zone created again starts empty")
    }

    @Test("a memory log names, lists, finds and deletes partitions as a store directory does, and refuses all after close")
    func partitionSet() throws {
        let log = MemoryLog()
        let notes = try log.createPartition(named: "Notes")
        #expect(try log.createPartition(named: "Notes") === notes)
        try log.createPartition(named: "Archive")
        #expect(log.partitionNames == ["Archive", "Notes"])
        #expect(try log.partition(named: "Notes") === notes)
        #expect(throws: LogError.invalidPartitionName("", reason: "a partition name cannot be empty")) { try log.createPartition(named: "") }
        #expect(throws: LogError.partitionNotFound("Drafts")) { try log.deletePartition(named: "Drafts") }
        try log.deletePartition(named: "Archive")
        #expect(log.partitionNames == ["Notes"])
        try log.sync()
        #expect(log.syncCount == 0)
        try log.close()
        #expect(throws: LogError.closed) { try log.createPartition(named: "Drafts") }
        #expect(throws: LogError.closed) { try notes.appendWithoutWaiting(RecordBatchBuilder(Sample.events(0..<1)).encode()) }
    }
}

/// A check every record passes.
private enum EveryRecord: CachedRecordCheck {
    static func passes(_ record: BorrowedLogRecord) -> Bool { true }
}
