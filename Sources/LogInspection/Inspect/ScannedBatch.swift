import RecordLog

/// One batch of a segment file as a scan found it: a valid batch, or a damaged stretch of bytes.
public struct ScannedBatch: Sendable {
    /// The byte position of the batch in its file.
    public let position: Int64
    /// Bytes it takes: the batch's size, or for damage the bytes up to the next valid batch.
    public let size: Int
    /// The header, when at least its 61 bytes are present (for damage it may be garbage).
    package let header: RecordBatchHeader?
    /// The batch, when its bytes check out (length, magic, CRC, LZ4 frame header).
    package let batch: RecordBatch?
    /// What is wrong, nil for a valid batch.
    public let problem: String?

    /// Whether the batch is valid: its bytes check out and its base offset continues the log.
    public var isValid: Bool { problem == nil }
}
