import Foundation
import StorageKit
import Testing
@testable import RecordLog

/// A batch another Kafka writer compressed with a codec this engine does not read (gzip, snappy,
/// zstd): it is a whole, valid batch — its CRC holds, recovery keeps it — but no read can decode
/// its records, so every read refuses it with a typed error that names the codec, and nothing
/// on disk changes.
@Suite struct ForeignCodecBatchTests {
    /// A plain batch of two records with its codec bits set to `codec` and its CRC-32C made right.
    static func batch(compressedWith codec: CompressionCodec) throws -> [UInt8] {
        var builder = RecordBatchBuilder()
        builder.append(key: "note-1", value: Array("Buy milk".utf8), timestamp: 1_700_000_000_000)
        builder.append(key: "note-2", value: Array("and eggs".utf8), timestamp: 1_700_000_000_001)
        var bytes = try builder.encode(compression: .none).bytes
        // Attributes: bytes 21–22, big-endian; the codec is their low three bits.
        bytes[22] = (bytes[22] & ~0x07) | UInt8(codec.rawValue)
        let crc = bytes[21...].withUnsafeBytes { CRC32C.checksum($0) }
        for index in 0..<4 { bytes[17 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        return bytes
    }

    static func isUnsupportedCodec(_ error: LogError?, _ codec: CompressionCodec) -> Bool {
        guard case .malformedBatch(let reason)? = error else { return false }
        return reason.contains("compression codec \(codec.rawValue) is not supported")
    }

    @Test("every decoder of a batch refuses a codec it does not read, naming it", arguments: [CompressionCodec.gzip, .snappy, .zstd])
    func decodersRefuse(codec: CompressionCodec) throws {
        let batch = try RecordBatch(bytes: try Self.batch(compressedWith: codec)[...])
        #expect(batch.header.compression == codec)
        #expect(batch.header.recordCount == 2)
        let records = #expect(throws: LogError.self) { try batch.records() }
        #expect(Self.isUnsupportedCodec(records, codec), "\(String(describing: records))")
        let walked = #expect(throws: LogError.self) { try batch.forEachRecord { _ in } }
        #expect(Self.isUnsupportedCodec(walked, codec))
        var buffer: [UInt8] = []
        let inPlace = #expect(throws: LogError.self) { try batch.forEachRecordInPlace(buffer: &buffer) { _ in } }
        #expect(Self.isUnsupportedCodec(inPlace, codec))
    }

    @Test("a segment holding another writer's gzip batch opens, and reading it is refused with a typed error; the file is unchanged")
    func segmentWithForeignBatch() async throws {
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            let notes = try log.createPartition(named: "Notes")
            var own = RecordBatchBuilder()
            own.append(key: "own", value: [1, 2, 3], timestamp: 1_700_000_000_000)
            _ = try await notes.append(own)
            try log.close()
            // The foreign batch follows, at offset 1, as another writer appended it.
            let path = try partitionDirectory(store) + "/" + RecoveryTests.segmentName
            var foreign = try Self.batch(compressedWith: .gzip)
            foreign[7] = 1  // base offset 1 (bytes 0–7, big-endian)
            let crc = foreign[21...].withUnsafeBytes { CRC32C.checksum($0) }
            for index in 0..<4 { foreign[17 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            let bytes = try readBytes(path) + foreign
            try writeBytes(bytes, to: path)

            let reopened = try Log(directory: store, options: fastOptions())
            let partition = try reopened.partition(named: "Notes")
            #expect(partition.endOffset == 3, "the batch is whole and valid: recovery keeps it")
            let refused = #expect(throws: LogError.self) { try partition.records(from: 0) }
            #expect(Self.isUnsupportedCodec(refused, .gzip), "\(String(describing: refused))")
            #expect(try partition.records(from: 0, to: 1, limit: 1).map(\.offset) == [0])
            try reopened.close()
            #expect(try readBytes(path) == bytes)
        }
    }
}
