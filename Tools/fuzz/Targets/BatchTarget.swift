import RecordLog
import StorageKit

/// A record batch, as every read of a segment validates and decodes it. Each input is tried as
/// given and again with its CRC-32C made right, so that the fuzzer gets past the checksum into
/// the records section, the LZ4 frame and the records.
enum BatchTarget {
    static func run(_ input: [UInt8]) {
        decode(input)
        if let sealed = withCorrectCRC(input) { decode(sealed) }
    }

    static func accepts(_ input: [UInt8]) -> Bool {
        (try? RecordBatch(bytes: input[...]).records()) != nil
    }

    private static func decode(_ bytes: [UInt8]) {
        guard let batch = try? RecordBatch(bytes: bytes[...]) else { return }
        require(batch.bytes.count == batch.header.totalSize, "a batch accepted with \(batch.bytes.count) bytes for \(batch.header.totalSize)")
        let records = try? batch.records()
        var buffer: [UInt8] = []
        var inPlace = 0
        let walked = (try? batch.forEachRecordInPlace(buffer: &buffer) { _ in inPlace += 1 }) != nil
        // The two decoders check exactly the same things (RecordBatch's doc).
        require((records != nil) == walked, "records() and forEachRecordInPlace disagree on whether the batch decodes")
        if let records {
            require(records.count == inPlace, "records() found \(records.count) records, forEachRecordInPlace \(inPlace)")
            require(Int64(records.count) == Int64(batch.header.recordCount), "a batch decoded \(records.count) of its \(batch.header.recordCount) records")
        }
    }

    /// `bytes` with the CRC-32C field (bytes 17–20, big-endian) set to the checksum of bytes 21
    /// to the end the batch length names (or to the end of the input); nil when too short.
    static func withCorrectCRC(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= RecordBatchHeader.size else { return nil }
        let length = bytes[8..<12].reduce(0) { $0 << 8 | Int($1) }
        let end = min(bytes.count, 12 + max(0, min(length, bytes.count)))
        guard end > 21 else { return nil }
        var sealed = bytes
        let crc = sealed[21..<end].withUnsafeBytes { CRC32C.checksum($0) }
        for index in 0..<4 { sealed[17 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return sealed
    }

    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        var builder = RecordBatchBuilder()
        builder.append(key: "note-1", value: Array("Buy milk".utf8), headers: [LogHeader(key: "event", string: "save")], timestamp: 1_700_000_000_000)
        builder.append(key: "note-2", value: nil, headers: [LogHeader(key: "event", string: "delete")], timestamp: 1_700_000_000_001)
        builder.append(key: nil, value: Array(repeating: 0x61, count: 300), timestamp: 1_700_000_000_002)
        let plain = try builder.encode(compression: .none).bytes
        let compressed = try builder.encode(compression: .lz4).bytes
        var one = RecordBatchBuilder()
        one.append(key: "k", value: [1, 2, 3])
        return [("three-records-plain", plain), ("three-records-lz4", compressed), ("one-record", try one.encode(compression: .none).bytes)]
    }
}
