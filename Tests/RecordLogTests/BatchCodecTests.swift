import Testing
@testable import RecordLog
import StorageKit

@Suite struct BatchCodecTests {
    static let codecs: [CompressionCodec] = [.lz4, .none]

    static func decode(_ encoded: EncodedBatch) throws -> [LogRecord] {
        try RecordBatch(bytes: encoded.bytes[...]).records()
    }

    static func integer<T: FixedWidthInteger>(_ bytes: [UInt8], at index: Int, as: T.Type) -> T {
        bytes[index..<(index + MemoryLayout<T>.size)].reduce(T.zero) { ($0 << 8) | T(truncatingIfNeeded: $1) }
    }

    @Test("keys, values, headers and timestamps survive encode and decode", arguments: codecs)
    func roundTrip(codec: CompressionCodec) throws {
        let events = Sample.events(0..<200)
        let encoded = try RecordBatchBuilder(events).encode(compression: codec)
        let records = try Self.decode(encoded)
        #expect(records.map(\.event) == events)
        #expect(records.map(\.offset) == Array(0..<200))
        #expect(encoded.recordCount == 200)
    }

    @Test("a null value is a tombstone; an empty value is not", arguments: codecs)
    func tombstoneVersusEmpty(codec: CompressionCodec) throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "deleted", value: nil, timestamp: 1)
        builder.append(key: "empty", value: [], timestamp: 2)
        let records = try Self.decode(builder.encode(compression: codec))
        try #require(records.count == 2)
        #expect(records[0].isTombstone)
        #expect(records[0].value == nil)
        #expect(!records[1].isTombstone)
        #expect(records[1].value == [])
        #expect(records[1].value != nil)
    }

    @Test("a null key stays null and an empty key stays empty", arguments: codecs)
    func nullKey(codec: CompressionCodec) throws {
        var builder = RecordBatchBuilder()
        builder.append(key: nil as [UInt8]?, value: Array("v".utf8), timestamp: 1)
        builder.append(key: [], value: Array("w".utf8), timestamp: 1)
        let records = try Self.decode(builder.encode(compression: codec))
        #expect(records.map(\.key) == [nil, []])
        #expect(records[0].keyString == nil)
        #expect(records[1].keyString == "")
    }

    @Test("a header with a null value differs from one with an empty value", arguments: codecs)
    func headerNullVersusEmpty(codec: CompressionCodec) throws {
        let headers = [
            LogHeader(key: "null", value: nil), LogHeader(key: "empty", value: []),
            LogHeader(key: "ключ", string: "значение"), LogHeader(key: "", value: [0, 255]),
            LogHeader(key: "null", string: "second header with the same key"),
        ]
        var builder = RecordBatchBuilder()
        builder.append(key: "k", value: [1], headers: headers, timestamp: 5)
        let record = try #require(try Self.decode(builder.encode(compression: codec)).first)
        #expect(record.headers == headers)
        #expect(record.header("null")?.value == nil)
        #expect(record.header("empty")?.value == [])
        #expect(record.header("ключ")?.stringValue == "значение")
        #expect(record.header("missing") == nil)
    }

    @Test("the 61-byte header holds Kafka's v2 fields", arguments: codecs)
    func headerLayout(codec: CompressionCodec) throws {
        // Non-monotonic record timestamps: the first is not the smallest, the max is in the middle.
        let times: [Int64] = [1_700_000_000_500, 1_700_000_000_100, 1_700_000_009_000, 1_700_000_000_000]
        var builder = RecordBatchBuilder()
        for (index, time) in times.enumerated() { builder.append(key: "k\(index)", value: [UInt8(index)], timestamp: time) }
        let encoded = try builder.encode(compression: codec, partitionLeaderEpoch: 7)
        let bytes = encoded.bytes
        #expect(Self.integer(bytes, at: 0, as: Int64.self) == 0, "base offset is 0 until written")
        #expect(Self.integer(bytes, at: 8, as: Int32.self) == Int32(bytes.count - 12), "batch length counts the bytes after it")
        #expect(Self.integer(bytes, at: 12, as: Int32.self) == 7, "partition leader epoch")
        #expect(bytes[16] == 2, "magic")
        let storedCRC = Self.integer(bytes, at: 17, as: UInt32.self)
        let computed = bytes.withUnsafeBytes { CRC32C.portableChecksum(UnsafeRawBufferPointer(rebasing: $0[21...])) }
        #expect(storedCRC == computed, "CRC-32C over bytes 21 to the end")
        #expect(Self.integer(bytes, at: 21, as: Int16.self) == codec.rawValue, "attributes: codec only, CreateTime")
        #expect(Self.integer(bytes, at: 23, as: Int32.self) == 3, "last offset delta")
        #expect(Self.integer(bytes, at: 27, as: Int64.self) == times[0], "first timestamp is the first record's")
        #expect(Self.integer(bytes, at: 35, as: Int64.self) == times.max(), "max timestamp")
        #expect(Array(bytes[43..<61]) == [UInt8](repeating: 0xFF, count: 14) + [0, 0, 0, 4],
            "producer id -1, epoch -1, sequence -1, record count 4")
        if codec == .lz4 { #expect(Array(bytes[61..<65]) == LZ4Frame.magic) }
        #expect(encoded.firstTimestamp == times[0])
        #expect(encoded.maxTimestamp == times.max())
        #expect(try Self.decode(encoded).map(\.timestamp) == times)

        let header = try #require(RecordBatchHeader(parsing: bytes))
        #expect(header.producerID == -1 && header.producerEpoch == -1 && header.baseSequence == -1)
        #expect(header.compression == codec && !header.isTransactional && !header.isControl && !header.usesLogAppendTime)
        #expect(header.totalSize == bytes.count)
        #expect(header.lastOffset == 3)
    }

    @Test("an uncompressed record is encoded byte for byte as Kafka's")
    func recordLayout() throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "k", value: Array("v".utf8), timestamp: 1_000)
        builder.append(key: "t", value: nil, headers: [LogHeader(key: "h", value: nil)], timestamp: 999)
        let bytes = try builder.encode(compression: .none).bytes
        // length 8, attributes 0, timestamp delta 0, offset delta 0, key length 1 "k", value length 1 "v", 0 headers
        let first: [UInt8] = [0x10, 0x00, 0x00, 0x00, 0x02, 0x6B, 0x02, 0x76, 0x00]
        // length 10, attributes 0, timestamp delta -1, offset delta 1, key "t", null value, 1 header "h" with null value
        let second: [UInt8] = [0x14, 0x00, 0x01, 0x02, 0x02, 0x74, 0x01, 0x02, 0x02, 0x68, 0x01]
        #expect(Array(bytes[61...]) == first + second)
        #expect(try builder.encode(compression: .none).uncompressedSize == first.count + second.count)
    }

    @Test("records above 64 KiB compress into several LZ4 blocks and still decode")
    func largeBatch() throws {
        let events = Sample.events(0..<50, valueBytes: 5_000)
        let encoded = try RecordBatchBuilder(events).encode()
        #expect(encoded.uncompressedSize > 200_000)
        #expect(try Self.decode(encoded).map(\.event) == events)
    }

    @Test("the decompression limit applies to a batch's records")
    func decompressionLimit() throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "zeros", value: [UInt8](repeating: 0, count: 1 << 20), timestamp: 0)
        let batch = try RecordBatch(bytes: builder.encode().bytes[...])
        #expect(throws: LogError.decompressedSizeExceeded(limit: 1 << 16)) {
            try batch.records(maxDecompressedBytes: 1 << 16)
        }
        #expect(try batch.records(maxDecompressedBytes: 2 << 20).first?.value?.count == 1 << 20)
    }

    @Test("extreme timestamps and deltas round trip", arguments: codecs)
    func extremeTimestamps(codec: CompressionCodec) throws {
        let times: [Int64] = [0, -1, 1 << 40, -(1 << 40), 1_700_000_000_000, 0]
        var builder = RecordBatchBuilder()
        for time in times { builder.append(key: nil as [UInt8]?, value: [1], timestamp: time) }
        #expect(try Self.decode(builder.encode(compression: codec)).map(\.timestamp) == times)
    }

    @Test("all the append overloads write the same record")
    func appendOverloads() throws {
        let key = Array("same-key".utf8), value = Array("same value".utf8)
        var fromArrays = RecordBatchBuilder(), fromString = RecordBatchBuilder(), fromPointers = RecordBatchBuilder()
        fromArrays.append(key: key, value: value, timestamp: 9)
        fromString.append(key: "same-key", value: value, timestamp: 9)
        key.withUnsafeBytes { k in value.withUnsafeBytes { v in fromPointers.append(key: k, value: v, timestamp: 9) } }
        let expected = try fromArrays.encode().bytes
        #expect(try fromString.encode().bytes == expected)
        #expect(try fromPointers.encode().bytes == expected)
    }

    @Test("a builder emptied with removeAll encodes like a new one")
    func removeAllReuses() throws {
        var builder = RecordBatchBuilder()
        builder.append(key: "old", value: [1, 2, 3], timestamp: 100)
        builder.removeAll()
        #expect(builder.isEmpty && builder.count == 0 && builder.uncompressedSize == 0)
        builder.append(key: "new", value: [4], timestamp: 50)
        var fresh = RecordBatchBuilder()
        fresh.append(key: "new", value: [4], timestamp: 50)
        #expect(try builder.encode().bytes == fresh.encode().bytes)
    }

    @Test("an empty batch cannot be encoded")
    func emptyBatch() {
        #expect(throws: LogError.emptyBatch) { try RecordBatchBuilder().encode() }
    }

    @Test("codecs the engine does not write are refused", arguments: [CompressionCodec.gzip, .snappy, .zstd])
    func unsupportedCodecs(codec: CompressionCodec) {
        var builder = RecordBatchBuilder()
        builder.append(key: "k", value: [1], timestamp: 0)
        #expect(throws: LogError.self) { try builder.encode(compression: codec) }
    }

    @Test("RecordBatch(bytes:) takes only its own batch from a longer buffer")
    func batchPrefix() throws {
        var one = RecordBatchBuilder(), two = RecordBatchBuilder()
        one.append(key: "a", value: [1], timestamp: 1)
        two.append(key: "b", value: [2], timestamp: 2)
        let first = try one.encode().bytes, second = try two.encode().bytes
        let batches = try walkBatches(first + second)
        #expect(batches.count == 2)
        #expect(Array(batches[0].bytes) == first)
        #expect(try batches[1].records().first?.keyString == "b")
    }
}
