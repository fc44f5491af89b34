import Testing
@testable import RecordLog
import StorageKit

/// Reading records in place (`forEachRecordInPlace`, `BorrowedLogRecord`) must agree with the
/// allocating reads (`records()`, `LogRecord`) on every batch, valid or not.
@Suite struct InPlaceReadTests {
    /// The records of `batch` read in place, copied out, or the error the read threw.
    static func inPlace(_ batch: RecordBatch, buffer: inout [UInt8]) -> Result<[LogRecord], LogError> {
        var records: [LogRecord] = []
        do {
            try batch.forEachRecordInPlace(buffer: &buffer) { records.append(LogRecord($0)) }
            return .success(records)
        } catch {
            return .failure(error as? LogError ?? .malformedBatch(reason: "not a LogError: \(error)"))
        }
    }

    static func allocating(_ batch: RecordBatch) -> Result<[LogRecord], LogError> {
        Result { () throws(LogError) in
            do { return try batch.records() } catch { throw error as? LogError ?? .malformedBatch(reason: "not a LogError: \(error)") }
        }
    }

    @Test("in place and allocating reads give the same records, one buffer serving batches of every size", arguments: [CompressionCodec.lz4, .none])
    func sameRecords(compression: CompressionCodec) throws {
        var buffer: [UInt8] = []
        for (count, valueBytes) in [(40, 2_000), (3, 10), (200, 300), (1, 0), (5, 70_000)] {
            let batch = try RecordBatch(bytes: RecordBatchBuilder(Sample.events(0..<count, valueBytes: valueBytes)).encode(compression: compression).bytes[...])
            let expected = try batch.records()
            #expect(Self.inPlace(batch, buffer: &buffer) == .success(expected), "\(count) records of \(valueBytes) bytes")
        }
    }

    @Test("headers are found by name in place, the first of a name wins, a null value reads as nil")
    func headerLookup() throws {
        var builder = RecordBatchBuilder()
        let headers = [LogHeader(key: "event", string: "save"), LogHeader(key: "n", value: nil), LogHeader(key: "événement", string: "x"), LogHeader(key: "event", string: "second")]
        builder.append(key: "k", value: [1], headers: headers, timestamp: 1_000)
        let batch = try RecordBatch(bytes: builder.encode().bytes[...])
        var buffer: [UInt8] = []
        try batch.forEachRecordInPlace(buffer: &buffer) { record in
            #expect(record.headerValue("event").map(Array.init) == Array("save".utf8))
            #expect(record.headerValue("événement").map(Array.init) == Array("x".utf8))
            #expect(record.headerValue("n") == nil && record.headerValue("missing") == nil && record.headerValue("even") == nil)
            #expect(record.headers == headers && record.headerCount == 4)
        }
    }

    @Test("records that lie about their lengths fail in place with the very error of the allocating read")
    func lyingRecordsAgree() throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "k", value: Array("v".utf8), headers: [LogHeader(key: "h", string: "é")], timestamp: 1_000)
        let valid = try builder.encode(compression: .none).bytes
        var buffer: [UInt8] = []
        for index in RecordBatchHeader.size..<valid.count {
            for value: UInt8 in [0x00, 0x01, 0x02, 0x7F, 0x80, 0xC3, 0xFF] where value != valid[index] {
                var bytes = valid
                bytes[index] = value
                let batch = try RecordBatch(bytes: BatchBitFlipTests.withFixedCRC(bytes)[...])
                #expect(Self.inPlace(batch, buffer: &buffer) == Self.allocating(batch), "byte \(index) = \(value)")
            }
        }
    }

    @Test("a partition read in place visits the same records as forEachRecord, over any range, stopping when asked")
    func partitionRanges() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions(segmentBytes: 4096))
            let partition = try log.createPartition(named: "Notes")
            try await partition.append(Sample.events(0..<120, valueBytes: 90), batchSize: 17)
            for (from, to) in [(0, 120), (5, 6), (16, 35), (119, 120), (40, 40)] as [(Int64, Int64)] {
                let expected = try partition.records(from: from, to: to)
                var seen: [LogRecord] = []
                try partition.forEachRecordInPlace(from: from, to: to) { seen.append(LogRecord($0)); return true }
                #expect(seen == expected, "\(from)..<\(to)")
            }
            var visited = 0
            try partition.forEachRecordInPlace(from: 10) { _ in visited += 1; return visited < 3 }
            #expect(visited == 3)
            try log.close()
        }
    }
}
