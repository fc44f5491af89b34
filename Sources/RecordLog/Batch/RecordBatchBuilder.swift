#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// Collects the events of one atomic commit, encoding each record straight into one buffer.
///
/// ```swift
/// var batch = RecordBatchBuilder()
/// batch.append(key: "note-1", value: Array("hello".utf8), headers: [LogHeader(key: "type", string: "Note")])
/// batch.append(key: "note-2", value: nil)  // a tombstone: deletes note-2
/// let offsets = try await log.append(batch, to: "Notes")
/// ```
public struct RecordBatchBuilder: Sendable {
    /// The uncompressed records section is `storage[..<bodySize]`. Past `bodySize`, `storage`
    /// holds bytes already there (zeros, or an earlier batch's records), so that an append writes
    /// its record through one pointer: growing the array a field at a time — ten or more appends
    /// a record, each checking the array's uniqueness and capacity — cost four times the copy of
    /// the key and value themselves (callgrind over W10's loop).
    private var storage: [UInt8] = []
    /// The bytes of the records section.
    private var bodySize = 0
    /// Where ``append(key:value:headers:timestamp:)`` encodes a record's `LogHeader`s, kept so
    /// that records with headers cost no allocation each.
    private var headerScratch: [UInt8] = []
    /// How many records were appended.
    public private(set) var count: Int = 0
    /// The first record's timestamp, the base of every record's timestamp delta.
    private(set) var firstTimestamp: Int64 = 0
    /// The largest record timestamp.
    private(set) var maxTimestamp: Int64 = 0

    /// An empty batch; `reservingCapacity` pre-sizes the record buffer in bytes.
    public init(reservingCapacity: Int = 0) {
        storage.reserveCapacity(reservingCapacity)
    }

    /// Whether no record was appended.
    public var isEmpty: Bool { count == 0 }

    /// The size of the records section before compression.
    public var uncompressedSize: Int { bodySize }

    /// Appends one event. A `nil` value is a tombstone (a delete).
    ///
    /// - Parameter timestamp: milliseconds since the Unix epoch; now when nil.
    public mutating func append(
        key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?, headers: [LogHeader] = [], timestamp: Int64? = nil
    ) {
        let time = timestamp ?? Self.now()
        guard !headers.isEmpty else {
            return appendRecord(key: key, value: value, timestamp: time, headerCount: 0, headers: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        // Encoded into the builder's scratch memory, taken out for the call and put back.
        var encoded: [UInt8] = []
        swap(&encoded, &headerScratch)
        encoded.removeAll(keepingCapacity: true)
        for header in headers { header.encode(into: &encoded) }
        encoded.withUnsafeBytes { encoded in
            appendRecord(key: key, value: value, timestamp: time, headerCount: headers.count, headers: encoded)
        }
        swap(&encoded, &headerScratch)
    }

    /// Appends one event keyed by a string (its UTF-8 bytes) with headers encoded beforehand: for
    /// a writer whose events share headers. A `nil` value is a tombstone.
    ///
    /// - Parameter timestamp: milliseconds since the Unix epoch (``now()``).
    package mutating func append(key: String, value: UnsafeRawBufferPointer?, headers: EncodedLogHeaders, timestamp: Int64) {
        var key = key
        key.withUTF8 { keyBytes in
            headers.bytes.withUnsafeBytes { headerBytes in
                appendRecord(
                    key: UnsafeRawBufferPointer(keyBytes), value: value, timestamp: timestamp, headerCount: headers.count,
                    headers: headerBytes)
            }
        }
    }

    /// Appends one record with `headerCount` headers, encoded as `headers`.
    private mutating func appendRecord(
        key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?, timestamp time: Int64, headerCount: Int,
        headers: UnsafeRawBufferPointer, offsetDelta explicitDelta: Int32? = nil
    ) {
        if count == 0 {
            firstTimestamp = time
            maxTimestamp = time
        } else if time > maxTimestamp {
            maxTimestamp = time
        }
        let delta = time &- firstTimestamp
        let offsetDelta = explicitDelta ?? Int32(truncatingIfNeeded: count)
        var size = 1 + VarintSize.varlong(delta) + VarintSize.varint(offsetDelta)
        size += Self.sizeOfBytes(key) + Self.sizeOfBytes(value)
        size += VarintSize.varint(Int32(headerCount)) + headers.count
        let recordBytes = VarintSize.varint(Int32(size)) + size
        makeRoom(for: recordBytes)
        storage.withUnsafeMutableBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var cursor = start + bodySize
            cursor += VarintWriter.putVarint(Int32(size), at: cursor)
            cursor.storeBytes(of: 0, as: UInt8.self)  // record attributes: unused in v2
            cursor += 1
            cursor += VarintWriter.putVarlong(delta, at: cursor)
            cursor += VarintWriter.putVarint(offsetDelta, at: cursor)
            cursor = Self.put(key, at: cursor)
            cursor = Self.put(value, at: cursor)
            cursor += VarintWriter.putVarint(Int32(headerCount), at: cursor)
            if let source = headers.baseAddress, !headers.isEmpty {
                cursor.copyMemory(from: source, byteCount: headers.count)
                cursor += headers.count
            }
            assert(cursor - start == bodySize + recordBytes, "record size mismatch")
        }
        bodySize += recordBytes
        count += 1
    }

    /// Makes `storage` hold at least `bytes` past the records section, growing it geometrically
    /// (zeros appended, so that every byte written later already exists).
    private mutating func makeRoom(for bytes: Int) {
        let needed = bodySize + bytes
        guard storage.count < needed else { return }
        let grown = max(needed, storage.count * 2)
        storage.reserveCapacity(grown)
        storage.append(contentsOf: repeatElement(0, count: grown - storage.count))
    }

    /// Writes `bytes` as a record's key or value is held, its varint length then the bytes (-1
    /// and nothing for nil), at `cursor`; returns the position after them.
    private static func put(_ bytes: UnsafeRawBufferPointer?, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        guard let bytes else { return cursor + VarintWriter.putVarint(-1, at: cursor) }
        let length = VarintWriter.putVarint(Int32(bytes.count), at: cursor)
        if let source = bytes.baseAddress, !bytes.isEmpty { (cursor + length).copyMemory(from: source, byteCount: bytes.count) }
        return cursor + length + bytes.count
    }

    /// Appends a copy of `record` (key, value, headers and timestamp, byte for byte) at
    /// `offsetDelta` from the batch's base offset: the cleaner keeps each record at its offset,
    /// so a cleaned batch's deltas have gaps. Deltas must increase from one call to the next.
    mutating func appendCopy(of record: BorrowedLogRecord, offsetDelta: Int32) {
        appendRecord(
            key: record.key, value: record.value, timestamp: record.timestamp, headerCount: record.headerCount,
            headers: UnsafeRawBufferPointer(rebasing: record.section[record.headersRange]), offsetDelta: offsetDelta)
    }

    /// Appends one event with byte-array key and value. A `nil` value is a tombstone.
    public mutating func append(key: [UInt8]?, value: [UInt8]?, headers: [LogHeader] = [], timestamp: Int64? = nil) {
        Self.withOptionalBytes(key) { keyBytes in
            Self.withOptionalBytes(value) { valueBytes in
                append(key: keyBytes, value: valueBytes, headers: headers, timestamp: timestamp)
            }
        }
    }

    /// Appends one event keyed by a string (its UTF-8 bytes). A `nil` value is a tombstone.
    public mutating func append(key: String, value: [UInt8]?, headers: [LogHeader] = [], timestamp: Int64? = nil) {
        var key = key
        key.withUTF8 { keyBytes in
            Self.withOptionalBytes(value) { valueBytes in
                append(key: UnsafeRawBufferPointer(keyBytes), value: valueBytes, headers: headers, timestamp: timestamp)
            }
        }
    }

    /// Encodes the batch: header, CRC-32C and the records compressed as one LZ4 frame.
    /// The base offset is left 0; the partition sets it when it writes the batch.
    ///
    /// - Throws: `LogError.emptyBatch` when no record was appended.
    public func encode(compression: CompressionCodec = .lz4, partitionLeaderEpoch: Int32 = 0) throws -> EncodedBatch {
        try encode(compression: compression, partitionLeaderEpoch: partitionLeaderEpoch, reusing: [])
    }

    /// Encodes the batch as ``encode(compression:partitionLeaderEpoch:)`` does, into the memory of
    /// `spent`, a batch already appended and no longer needed: a producer that hands each
    /// written batch back encodes commit after commit without allocating or touching fresh pages.
    ///
    /// ```swift
    /// var spent: EncodedBatch?
    /// for builder in builders {
    ///     let batch = try builder.encode(reusing: spent.take())
    ///     _ = try await partition.append(batch)
    ///     spent = batch
    /// }
    /// ```
    ///
    /// - Throws: `LogError.emptyBatch` when no record was appended.
    public func encode(
        compression: CompressionCodec = .lz4, partitionLeaderEpoch: Int32 = 0, reusing spent: consuming EncodedBatch?
    ) throws -> EncodedBatch {
        // The bytes are moved out of the batch, not copied: held once, they are written in place.
        var memory: [UInt8] = []
        if var batch = consume spent { swap(&memory, &batch.bytes) }
        return try encode(compression: compression, partitionLeaderEpoch: partitionLeaderEpoch, reusing: consume memory)
    }

    /// Encodes the batch as ``encode(compression:partitionLeaderEpoch:)`` does, into `buffer`'s
    /// memory: its bytes are dropped, its capacity kept. A writer that takes the bytes back from
    /// each written batch (``EncodedBatch/bytes``) encodes commit after commit without allocating.
    /// Records of `twoThreadsFrom` bytes or more are compressed on two threads
    /// (``LZ4Frame/compress(_:appendingTo:twoThreadsFrom:)``: the same bytes, sooner).
    ///
    /// - Throws: `LogError.emptyBatch` when no record was appended.
    package func encode(
        compression: CompressionCodec = .lz4, partitionLeaderEpoch: Int32 = 0, reusing buffer: consuming [UInt8], twoThreadsFrom: Int = .max
    ) throws -> EncodedBatch {
        guard count > 0 else { throw LogError.emptyBatch }
        return try encode(
            compression: compression, partitionLeaderEpoch: partitionLeaderEpoch, lastOffsetDelta: Int32(count - 1),
            reusing: buffer, twoThreadsFrom: twoThreadsFrom)
    }

    /// A batch without records spanning `count` offsets from `baseOffset` (1 to `Int32.max`):
    /// what stands for offsets a compaction emptied, so that the batches after it still follow
    /// on without a hole (FORMAT.md §13, rule 3).
    package static func emptyBatch(at baseOffset: Int64, spanning count: Int64) throws -> RecordBatch {
        guard count >= 1, count <= Int64(Int32.max) else {
            throw LogError.malformedBatch(reason: "an empty batch must span 1 to \(Int32.max) offsets, not \(count)")
        }
        var bytes = try RecordBatchBuilder().encode(compression: .none, lastOffsetDelta: Int32(count - 1)).bytes
        bytes.setInteger(baseOffset, at: 0)
        return try RecordBatch(bytes: bytes[...])
    }

    /// Encodes the batch to span `lastOffsetDelta + 1` offsets from its base, which its records
    /// need not fill (a cleaned batch: ``appendCopy(of:offsetDelta:)``). A batch without records
    /// is written uncompressed, with no timestamp (-1): it only carries its offsets' span.
    func encode(
        compression requested: CompressionCodec, partitionLeaderEpoch: Int32 = 0, lastOffsetDelta: Int32,
        reusing buffer: consuming [UInt8] = [], twoThreadsFrom: Int = .max
    ) throws -> EncodedBatch {
        let compression = count == 0 ? .none : requested
        guard compression == .none || compression == .lz4 else {
            throw LogError.malformedBatch(reason: "RecordLog writes only lz4 or uncompressed batches")
        }
        let firstTimestamp = count == 0 ? -1 : firstTimestamp
        let maxTimestamp = count == 0 ? -1 : maxTimestamp
        let header = RecordBatchHeader.size
        let bound = header + (compression == .lz4 ? LZ4Frame.compressedBound(bodySize, twoThreadsFrom: twoThreadsFrom) : bodySize)
        let bytes = try [UInt8].writing(atMost: bound, reusing: buffer) { batch in
            try storage.withUnsafeBytes { stored in
                let body = UnsafeRawBufferPointer(rebasing: stored[..<bodySize])
                var size = header
                if compression == .lz4 {
                    size += try LogError.translating {
                        try LZ4Frame.compress(body, into: UnsafeMutableRawBufferPointer(rebasing: batch[header...]), twoThreadsFrom: twoThreadsFrom)
                    }
                } else if let source = body.baseAddress, let start = batch.baseAddress {
                    (start + header).copyMemory(from: source, byteCount: body.count)
                    size += body.count
                }
                var writer = HeaderWriter(batch)
                writer.put(Int64(0))  // base offset, set at write time
                writer.put(Int32(size - RecordBatchHeader.logOverhead))  // batch length
                writer.put(partitionLeaderEpoch)
                writer.put(RecordBatchHeader.currentMagic)
                writer.put(UInt32(0))  // CRC, set below
                writer.put(compression.rawValue)  // attributes: codec, CreateTime, not transactional
                writer.put(lastOffsetDelta)
                writer.put(firstTimestamp)
                writer.put(maxTimestamp)
                writer.put(Int64(-1))  // producer id
                writer.put(Int16(-1))  // producer epoch
                writer.put(Int32(-1))  // base sequence
                writer.put(Int32(count))
                assert(writer.position == header, "batch header size mismatch")
                let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: batch[RecordBatchHeader.crcStart..<size]))
                batch.storeBytes(of: crc.bigEndian, toByteOffset: 17, as: UInt32.self)
                return size
            }
        }
        return EncodedBatch(
            bytes: bytes, recordCount: count, firstTimestamp: firstTimestamp, maxTimestamp: maxTimestamp,
            uncompressedSize: bodySize)
    }

    /// Writes a batch header's fields one after another, big-endian, from the start of a batch.
    private struct HeaderWriter {
        let batch: UnsafeMutableRawBufferPointer
        var position = 0

        init(_ batch: UnsafeMutableRawBufferPointer) { self.batch = batch }

        mutating func put<T: FixedWidthInteger>(_ value: T) {
            batch.storeBytes(of: value.bigEndian, toByteOffset: position, as: T.self)
            position += MemoryLayout<T>.size
        }
    }

    /// Empties the batch, keeping its buffer for reuse.
    public mutating func removeAll() {
        bodySize = 0
        count = 0
    }

    /// The bytes the record buffer can hold without growing: a writer keeping a builder for
    /// reuse can drop one that a large batch made large.
    package var capacity: Int { storage.capacity }

    private static func sizeOfBytes(_ bytes: UnsafeRawBufferPointer?) -> Int {
        guard let bytes else { return 1 }
        return VarintSize.varint(Int32(bytes.count)) + bytes.count
    }

    private static func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBytes { body($0) }
    }

    /// The wall clock in milliseconds since the Unix epoch.
    package static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
