import StorageKit
/// The 61-byte header of a Kafka v2 record batch. All integers are big-endian.
///
/// ```
/// 0  baseOffset int64     | 27 firstTimestamp int64
/// 8  batchLength int32    | 35 maxTimestamp int64
/// 12 leaderEpoch int32    | 43 producerId int64
/// 16 magic int8 (= 2)     | 51 producerEpoch int16
/// 17 crc uint32           | 53 baseSequence int32
/// 21 attributes int16     | 57 recordCount int32
/// 23 lastOffsetDelta int32| 61 records…
/// ```
/// `batchLength` counts the bytes after itself; the CRC-32C covers bytes 21 to the end.
package struct RecordBatchHeader: Sendable, Equatable {
    /// Bytes in the header, up to the first record.
    package static let size = 61
    /// Bytes before `batchLength`'s count starts: the base offset and the length itself.
    package static let logOverhead = 12
    /// Where the CRC-covered part starts.
    static let crcStart = 21
    /// The magic byte of format v2.
    package static let currentMagic: Int8 = 2

    package var baseOffset: Int64
    package var batchLength: Int32
    package var partitionLeaderEpoch: Int32
    package var magic: Int8
    package var crc: UInt32
    package var attributes: Int16
    package var lastOffsetDelta: Int32
    package var firstTimestamp: Int64
    package var maxTimestamp: Int64
    package var producerID: Int64
    package var producerEpoch: Int16
    package var baseSequence: Int32
    package var recordCount: Int32

    /// The offset of the batch's last record.
    package var lastOffset: Int64 { baseOffset &+ Int64(lastOffsetDelta) }
    /// The whole batch's size on disk, header included.
    package var totalSize: Int { Self.logOverhead + Int(batchLength) }
    /// The codec, or nil for an unknown one.
    package var compression: CompressionCodec? { CompressionCodec(rawValue: attributes & 0x07) }
    /// Bit 3: 0 = CreateTime, 1 = LogAppendTime.
    package var usesLogAppendTime: Bool { attributes & 0x08 != 0 }
    /// Bit 4: part of a transaction.
    package var isTransactional: Bool { attributes & 0x10 != 0 }
    /// Bit 5: a control batch (transaction markers), which holds no application records.
    package var isControl: Bool { attributes & 0x20 != 0 }

    /// Reads a header from the first 61 bytes; nil when fewer bytes are given. Validates nothing.
    package init?(parsing bytes: UnsafeRawBufferPointer) {
        let reader = ByteReader(bytes)
        guard bytes.count >= Self.size,
            let baseOffset = reader.getInteger(at: 0, as: Int64.self),
            let batchLength = reader.getInteger(at: 8, as: Int32.self),
            let epoch = reader.getInteger(at: 12, as: Int32.self),
            let magic = reader.getInteger(at: 16, as: Int8.self),
            let crc = reader.getInteger(at: 17, as: UInt32.self),
            let attributes = reader.getInteger(at: 21, as: Int16.self),
            let lastOffsetDelta = reader.getInteger(at: 23, as: Int32.self),
            let firstTimestamp = reader.getInteger(at: 27, as: Int64.self),
            let maxTimestamp = reader.getInteger(at: 35, as: Int64.self),
            let producerID = reader.getInteger(at: 43, as: Int64.self),
            let producerEpoch = reader.getInteger(at: 51, as: Int16.self),
            let baseSequence = reader.getInteger(at: 53, as: Int32.self),
            let recordCount = reader.getInteger(at: 57, as: Int32.self)
        else { return nil }
        self.baseOffset = baseOffset
        self.batchLength = batchLength
        self.partitionLeaderEpoch = epoch
        self.magic = magic
        self.crc = crc
        self.attributes = attributes
        self.lastOffsetDelta = lastOffsetDelta
        self.firstTimestamp = firstTimestamp
        self.maxTimestamp = maxTimestamp
        self.producerID = producerID
        self.producerEpoch = producerEpoch
        self.baseSequence = baseSequence
        self.recordCount = recordCount
    }

    /// Reads a header from a byte array's first 61 bytes.
    package init?(parsing bytes: some Collection<UInt8>) {
        guard let header = Array(bytes.prefix(Self.size)).withUnsafeBytes({ Self(parsing: $0) }) else { return nil }
        self = header
    }
}
