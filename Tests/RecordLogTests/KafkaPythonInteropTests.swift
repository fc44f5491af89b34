import Foundation
import Testing
import TestSupport
@testable import RecordLog
import StorageKit

/// Segments written by another implementation (kafka-python), and ours read by kafka-python.
@Suite struct KafkaPythonInteropTests {
    struct ExpectedHeader: Decodable, Equatable {
        var key: String
        var value: String?
    }

    /// One record as kafka-python reports it: bytes in standard base64, null for null.
    struct ExpectedRecord: Decodable, Equatable {
        var offset: Int64
        var timestamp: Int64
        var key: String?
        var value: String?
        var headers: [ExpectedHeader]
    }

    struct ExpectedBatch: Decodable, Equatable {
        var baseOffset: Int64
        var lastOffset: Int64
        var count: Int32
        var position: Int
        var size: Int
        var firstTimestamp: Int64
        var maxTimestamp: Int64
        var crc: UInt32
    }

    static let fixtures = repositoryRoot.appendingPathComponent("Fixtures/kafka-python")
    static let segmentPath = fixtures.appendingPathComponent("00000000000000000000.log").path

    static func load<T: Decodable>(_ name: String, as: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func base64(_ bytes: ArraySlice<UInt8>?) -> String? {
        bytes.map { Data($0).base64EncodedString() }
    }

    /// A record in kafka-python's report format.
    static func expected(_ record: LogRecord) -> ExpectedRecord {
        ExpectedRecord(
            offset: record.offset, timestamp: record.timestamp, key: base64(record.key), value: base64(record.value),
            headers: record.headers.map { ExpectedHeader(key: $0.key, value: base64($0.value.map { $0[...] })) })
    }

    @Test("every batch and record of the kafka-python segment decodes as kafka-python wrote it")
    func readKafkaPythonSegment() async throws {
        let bytes = try readBytes(Self.segmentPath)
        let batches = try walkBatches(bytes)
        let expectedBatches = try Self.load("expected-batches.json", as: [ExpectedBatch].self)
        var position = 0
        let actualBatches = batches.map { batch in
            defer { position += batch.header.totalSize }
            return ExpectedBatch(
                baseOffset: batch.header.baseOffset, lastOffset: batch.header.lastOffset, count: batch.header.recordCount,
                position: position, size: batch.header.totalSize, firstTimestamp: batch.header.firstTimestamp,
                maxTimestamp: batch.header.maxTimestamp, crc: batch.header.crc)
        }
        #expect(actualBatches == expectedBatches)
        #expect(batches.allSatisfy { $0.header.compression == .lz4 })

        let records = try batches.flatMap { try $0.records() }.map(Self.expected)
        let expectedRecords = try Self.load("expected.json", as: [ExpectedRecord].self)
        #expect(records.count == expectedRecords.count)
        for (actual, expected) in zip(records, expectedRecords) { #expect(actual == expected) }
        // The fixture exercises what matters: tombstones, empty values, null keys, null header values.
        #expect(expectedRecords.contains { $0.value == nil } && expectedRecords.contains { $0.value == "" })
        #expect(expectedRecords.contains { $0.key == nil })
    }

    @Test("the segment scanner validates the kafka-python segment end to end")
    func scanKafkaPythonSegment() async throws {
        let file = try OpenFile(path: Self.segmentPath, writable: false)
        let size = try file.size()
        let scanner = SegmentScanner(file: file, fileSize: size, maxBatchBytes: LogOptions.defaultMaxBatchBytes)
        let outcome = try scanner.scan(from: 0, expectedOffset: 0) { _, _, _ in }
        let expectedBatches = try Self.load("expected-batches.json", as: [ExpectedBatch].self)
        #expect(outcome.problem == nil)
        #expect(outcome.validEnd == size)
        #expect(outcome.batchCount == expectedBatches.count)
        #expect(outcome.nextOffset == (expectedBatches.last?.lastOffset ?? -1) + 1)
    }

    @Test("a store holding the kafka-python segment opens and reads it")
    func openKafkaPythonSegmentInAStore() async throws {
        try await withStorePath { store in
            do {
                let log = try Log(directory: store, options: fastOptions())
                try log.createPartition(named: "Imported")
                try log.close()
            }
            let directory = try partitionDirectory(store, zone: "Imported")
            try writeBytes(try readBytes(Self.segmentPath), to: directory + "/00000000000000000000.log")
            let log = try Log(directory: store, options: fastOptions())
            let records = try log.partition(named: "Imported").records(from: 0).map(Self.expected)
            #expect(records == (try Self.load("expected.json", as: [ExpectedRecord].self)))
            try log.close()
        }
    }

    static let kafkaPythonRequired = ProcessInfo.processInfo.environment["RECORDLOG_REQUIRE_KAFKA_PYTHON"] == "1"

    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: Data, stderr: Data) {
        let outcome = try await ChildProcess.run(program: arguments)
        return (outcome.status, outcome.output, outcome.errors)
    }

    /// Runs a test only where python3 can import kafka-python, or always when CI requires it.
    static var needsKafkaPython: ConditionTrait {
        .enabled("needs python3 with kafka-python (Tools/fixtures/requirements.txt)") {
            if kafkaPythonRequired { return true }
            return (try? await run(["python3", "-c", "import kafka"]).status) == 0
        }
    }

    @Test(
        "kafka-python reads the segments we write, every CRC valid",
        needsKafkaPython)
    func kafkaPythonReadsOurSegments() async throws {
        try await withStorePath { store in
            var events = Sample.events(0..<300, valueBytes: 80)
            events[5].value = [UInt8](repeating: 7, count: 150_000)  // a batch of several LZ4 blocks
            try await makeStore(at: store, options: fastOptions(segmentBytes: 8192), events: events, batchSize: 6)
            let script = repositoryRoot.appendingPathComponent("Tools/fixtures/kafka-python-verify.py").path
            let result = try await Self.run(["python3", script, store + "/zones"])
            #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")

            let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
            let records = try lines.dropLast().map { try JSONDecoder().decode(ExpectedRecord.self, from: Data($0.utf8)) }
            let log = try Log(directory: store, options: fastOptions(readOnly: true))
            let ours = try log.partition(named: "Notes").records(from: 0).map(Self.expected)
            #expect(records == ours)
            #expect(records.count == events.count)
            #expect(lines.last?.contains("\"crcValid\": true") == true)
            try log.close()
        }
    }
}
