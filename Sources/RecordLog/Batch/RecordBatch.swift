import StorageKit
/// A whole Kafka v2 record batch: its header and its bytes, records still encoded.
///
/// ```swift
/// let batch = try RecordBatch(bytes: bytes[...])
/// for record in try batch.records() { … }
/// ```
package struct RecordBatch: Sendable {
    /// The parsed header.
    package let header: RecordBatchHeader
    /// The batch's bytes, from its base offset field to its last record.
    package let bytes: ArraySlice<UInt8>

    /// Validates and wraps the batch at the start of `bytes` (which may continue past it).
    ///
    /// - Throws: `LogError.malformedBatch` naming the problem.
    package init(bytes: ArraySlice<UInt8>, maxBatchBytes: Int = LogOptions.defaultMaxBatchBytes) throws {
        let checked = bytes.withUnsafeBytes { BatchValidation.check($0, maxBatchBytes: maxBatchBytes) }
        switch checked {
        case .success(let header):
            self.header = header
            self.bytes = bytes.prefix(header.totalSize)
        case .failure(let problem):
            throw LogError.malformedBatch(reason: problem.description)
        }
    }

    /// Wraps bytes already validated by the caller.
    init(validated header: RecordBatchHeader, bytes: ArraySlice<UInt8>) {
        self.header = header
        self.bytes = bytes
    }

    /// The records section as stored (compressed when the codec says so).
    package var storedRecords: ArraySlice<UInt8> {
        bytes.dropFirst(RecordBatchHeader.size)
    }

    /// Decompresses and decodes every record, in offset order.
    ///
    /// - Parameter maxDecompressedBytes: the most bytes the records may decompress to.
    /// - Throws: `LogError.malformedBatch` or `LogError.malformedFrame` when the bytes lie.
    package func records(maxDecompressedBytes: Int = LogOptions.defaultMaxDecompressedBytes) throws -> [LogRecord] {
        return try LogError.translating {
            var records: [LogRecord] = []
            records.reserveCapacity(Int(max(0, min(header.recordCount, 1 << 16))))
            try forEachRecord(maxDecompressedBytes: maxDecompressedBytes) { records.append($0) }
            return records
        }
    }

    /// Calls `body` with each record, in offset order, without collecting them.
    package func forEachRecord(
        maxDecompressedBytes: Int = LogOptions.defaultMaxDecompressedBytes, _ body: (LogRecord) throws -> Void
    ) throws {
        return try LogError.translating {
            let section = try decodedRecordsSection(maxDecompressedBytes: maxDecompressedBytes)
            try RecordDecoder.decode(section, header: header, body)
        }
    }

    /// Calls `body` with each record read in place, in offset order: nothing is copied or
    /// allocated per record. `buffer` receives the decompressed records: pass the same buffer for
    /// every batch of a scan so its memory is reused. Checks exactly what ``forEachRecord`` checks.
    package func forEachRecordInPlace(
        maxDecompressedBytes: Int = LogOptions.defaultMaxDecompressedBytes, buffer: inout [UInt8],
        _ body: (BorrowedLogRecord) throws -> Void
    ) throws {
        return try LogError.translating {
            try withRecordsSection(maxDecompressedBytes: maxDecompressedBytes, buffer: &buffer) {
                try RecordDecoder.walk($0, header: header, body)
            }
        }
    }

    /// Calls `body` with the records section, decompressed into `buffer` (or in place when the
    /// batch is not compressed); pass the same buffer for every batch of a scan.
    func withRecordsSection<Result>(
        maxDecompressedBytes: Int, buffer: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        switch header.compression {
        case .none?:
            return try storedRecords.withUnsafeBytes(body)
        case .lz4?:
            let count = try storedRecords.withUnsafeBytes {
                try LZ4Frame.decompress($0, reusing: &buffer, sizeHint: decompressedSizeHint, limit: maxDecompressedBytes)
            }
            return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        default:
            throw unsupportedCompression
        }
    }

    /// The records section, decompressed.
    func decodedRecordsSection(maxDecompressedBytes: Int) throws -> [UInt8] {
        switch header.compression {
        case .none?:
            return Array(storedRecords)
        case .lz4?:
            return try storedRecords.withUnsafeBytes {
                try LZ4Frame.decompress($0, sizeHint: decompressedSizeHint, limit: maxDecompressedBytes)
            }
        default:
            throw unsupportedCompression
        }
    }

    /// Text-like records compress about 3:1; hint a little more to avoid a second chunk.
    private var decompressedSizeHint: Int { storedRecords.count * 4 }

    private var unsupportedCompression: LogError {
        .malformedBatch(reason: "compression codec \(header.attributes & 0x07) is not supported")
    }
}
