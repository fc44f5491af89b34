/// A batch encoded and checksummed, ready to be written at any base offset.
///
/// The base offset is outside the CRC, so it is set at write time without re-encoding.
public struct EncodedBatch: Sendable {
    /// The batch's bytes with base offset 0.
    package internal(set) var bytes: [UInt8]
    /// The number of records.
    package let recordCount: Int
    package let firstTimestamp: Int64
    package let maxTimestamp: Int64
    /// The size of the records before compression.
    package let uncompressedSize: Int
}
