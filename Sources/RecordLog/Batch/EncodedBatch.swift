/// A batch encoded and checksummed, ready to be written at any base offset.
///
/// The base offset is outside the CRC, so it is set at write time without re-encoding.
public struct EncodedBatch: Sendable {
    /// The batch's bytes with base offset 0.
    public let bytes: [UInt8]
    /// The number of records.
    public let recordCount: Int
    public let firstTimestamp: Int64
    public let maxTimestamp: Int64
    /// The size of the records before compression.
    public let uncompressedSize: Int
}
