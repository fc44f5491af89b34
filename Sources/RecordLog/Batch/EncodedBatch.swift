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

extension EncodedBatch {
    /// A batch another writer encoded and stored — a row of a cluster's shared log — to be
    /// written unchanged into a mirror at its own base offset. It claims every offset its header
    /// spans (`lastOffsetDelta + 1`), so the mirror's offsets stay the shared log's.
    package init(stored batch: RecordBatch) {
        var bytes = Array(batch.bytes)
        for index in 0..<8 { bytes[index] = 0 }
        self.init(
            bytes: bytes, recordCount: Int(batch.header.lastOffsetDelta) + 1, firstTimestamp: batch.header.firstTimestamp,
            maxTimestamp: batch.header.maxTimestamp, uncompressedSize: bytes.count)
    }
}
