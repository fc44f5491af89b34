import Foundation
import Testing
@testable import RecordLog
import TestSupport

/// The log's cache of decompressed batches (`forEachRecordInPlace(cached: true)`) must never
/// change what a read returns, must stay within its budget, and must keep what is read again.
@Suite struct BatchCacheTests {
    private func options(cacheBytes: Int) -> LogOptions {
        var options = fastOptions(segmentBytes: 8192)
        options.batchCacheBytes = cacheBytes
        return options
    }

    /// Runs `body` with a log whose cache holds `cacheBytes` and its partition "Notes", holding
    /// `count` sample events (`valueBytes` each) in batches of `batchSize`; closes the log after.
    func withPartition(
        cacheBytes: Int, count: Int, valueBytes: Int = 90, batchSize: Int, _ body: (Log, Partition) async throws -> Void
    ) async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: options(cacheBytes: cacheBytes))
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(Sample.events(0..<count, valueBytes: valueBytes), batchSize: batchSize)
            try await body(log, partition)
        }
    }

    func read(_ partition: Partition, from: Int64, to: Int64? = nil, cached: Bool) throws -> [LogRecord] {
        var seen: [LogRecord] = []
        try partition.forEachRecordInPlace(from: from, to: to, cached: cached) { seen.append(LogRecord($0)); return true }
        return seen
    }

    @Test("cached reads return the uncached records, over any range, read once, twice and again")
    func sameRecords() async throws {
        try await withPartition(cacheBytes: 1 << 20, count: 200, valueBytes: 90, batchSize: 17) { log, partition in
            let ranges: [(Int64, Int64?)] = [(0, nil), (5, 6), (16, 35), (17, 34), (199, 200), (40, 40), (150, nil)]
            for round in 1...3 {
                for (from, to) in ranges {
                    let expected = try partition.records(from: from, to: to)
                    #expect(try read(partition, from: from, to: to, cached: true) == expected, "round \(round), \(from)..<\(to.map(String.init) ?? "end")")
                }
            }
            #expect(log.batchCache.byteCount > 0, "batches read are kept")
            // Stopping early works from the cache too.
            var visited = 0
            try partition.forEachRecordInPlace(from: 10, cached: true) { _ in visited += 1; return visited < 3 }
            #expect(visited == 3)
        }
    }

    @Test("a cached read keeps the batches it read, and the next read is served from memory")
    func servedFromMemory() async throws {
        try await withPartition(cacheBytes: 1 << 20, count: 40, valueBytes: 90, batchSize: 10) { log, partition in
            let expected = try partition.records(from: 0)
            #expect(try read(partition, from: 0, cached: false) == expected)
            #expect(log.batchCache.byteCount == 0, "uncached reads do not fill")
            #expect(try read(partition, from: 0, cached: true) == expected)
            let kept = log.batchCache.byteCount
            #expect(kept > 0)
            // Served from memory: the segment files can be emptied and the read still returns the records.
            for file in try FileManager.default.contentsOfDirectory(atPath: partition.directory) where file.hasSuffix(".log") {
                try Data(count: 0).write(to: URL(fileURLWithPath: partition.directory + "/" + file))
            }
            #expect(try read(partition, from: 0, cached: true) == expected)
            #expect(log.batchCache.byteCount == kept)
        }
    }

    @Test("the cache stays within its budget, and a scan keeps at most half of it")
    func budget() async throws {
        let capacity = 64 << 10
        try await withPartition(cacheBytes: capacity, count: 600, valueBytes: 400, batchSize: 20) { log, partition in
            let expected = try partition.records(from: 0)
            #expect(try read(partition, from: 0, cached: true) == expected)
            // One scan stops keeping once it kept half: it may pass half by one batch.
            let largest = try partition.batches(from: 0, maxBytes: .max).map { try $0.decodedRecordsSection(maxDecompressedBytes: 1 << 20).count }.max() ?? 0
            #expect(log.batchCache.byteCount > 0)
            #expect(log.batchCache.byteCount < capacity / 2 + largest + BatchCache.overheadBytes + 64, "one scan keeps about half the cache")
            for _ in 1...3 {
                #expect(try read(partition, from: 0, cached: true) == expected)
                #expect(log.batchCache.byteCount <= capacity)
            }
            for from in stride(from: Int64(0), to: 600, by: 60) {
                for _ in 1...2 { #expect(try read(partition, from: from, to: from + 60, cached: true) == Array(expected[Int(from)..<Int(from) + 60])) }
                #expect(log.batchCache.byteCount <= capacity)
            }
        }
    }

    @Test("a zone deleted and created again does not read the old zone's kept batches")
    func recreatedZone() async throws {
        try await withPartition(cacheBytes: 1 << 20, count: 30, valueBytes: 90, batchSize: 10) { log, old in
            for _ in 1...3 { _ = try read(old, from: 0, cached: true) }
            #expect(log.batchCache.byteCount > 0)
            try log.deletePartition(named: "Notes")
            let new = try log.createPartition(named: "Notes")
            let events = Sample.events(100..<130, valueBytes: 60)
            try await new.append(events, batchSize: 10)
            for _ in 1...3 {
                #expect(try read(new, from: 0, cached: true).map(\.event) == events, "same offsets, other records")
            }
        }
    }

    @Test("a batch whose records are malformed (its CRC intact) fails a cached read, every time, where an uncached read fails")
    func malformedBatch() async throws {
        try await withPartition(cacheBytes: 1 << 20, count: 10, batchSize: 10) { _, partition in
            var builder = RecordBatchBuilder()
            for event in Sample.events(10..<13, valueBytes: 20) { builder.append(key: event.key, value: event.value, headers: event.headers) }
            let valid = try builder.encode(compression: .none)
            var bytes = valid.bytes
            // The last record's last header value, null (-1), now 1 byte long: past the record's end.
            #expect(bytes[bytes.count - 1] == 0x01)
            bytes[bytes.count - 1] = 0x02
            _ = try await partition.append(EncodedBatch(
                bytes: BatchBitFlipTests.withFixedCRC(bytes), recordCount: valid.recordCount, firstTimestamp: valid.firstTimestamp,
                maxTimestamp: valid.maxTimestamp, uncompressedSize: valid.uncompressedSize))
            try await partition.append(Sample.events(13..<20, valueBytes: 20), batchSize: 10)
            func attempt(cached: Bool) -> (records: [LogRecord], error: LogError?) {
                var seen: [LogRecord] = []
                do {
                    try partition.forEachRecordInPlace(from: 0, cached: cached) { seen.append(LogRecord($0)); return true }
                    return (seen, nil)
                } catch {
                    return (seen, error as? LogError)
                }
            }
            let uncached = attempt(cached: false)
            #expect(uncached.records.count == 12, "the records before the malformed one")
            guard case .malformedBatch? = uncached.error else {
                Issue.record("expected malformedBatch, got \(String(describing: uncached.error))")
                return
            }
            for round in 1...3 {
                let cached = attempt(cached: true)
                #expect(cached.records == uncached.records && cached.error == uncached.error, "round \(round)")
            }
        }
    }

    @Test("with no cache, cached reads read the files")
    func disabled() async throws {
        try await withPartition(cacheBytes: 0, count: 30, valueBytes: 90, batchSize: 10) { log, partition in
            let expected = try partition.records(from: 0)
            for _ in 1...3 { #expect(try read(partition, from: 0, cached: true) == expected) }
            #expect(log.batchCache.byteCount == 0)
        }
    }
}
