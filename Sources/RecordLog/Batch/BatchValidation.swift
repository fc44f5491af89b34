import StorageKit
/// Structural checks of one batch in untrusted bytes: length bounds, magic, CRC-32C, record
/// count, offset continuity, and the start of the LZ4 frame. Records are not decompressed.
enum BatchValidation {
    /// Checks the batch at the start of `bytes`, which may continue past the batch.
    static func check(
        _ bytes: UnsafeRawBufferPointer, maxBatchBytes: Int, expectedBaseOffset: Int64? = nil
    ) -> Result<RecordBatchHeader, BatchProblem> {
        let reader = ByteReader(bytes)
        guard let length = reader.getInteger(at: 8, as: Int32.self) else {
            return .failure(.incomplete(available: bytes.count, needed: RecordBatchHeader.logOverhead))
        }
        let minimum = RecordBatchHeader.size - RecordBatchHeader.logOverhead
        guard Int(length) >= minimum, Int(length) <= maxBatchBytes - RecordBatchHeader.logOverhead else {
            return .failure(.badLength(length))
        }
        let total = RecordBatchHeader.logOverhead + Int(length)
        guard bytes.count >= total else { return .failure(.incomplete(available: bytes.count, needed: total)) }
        guard let header = RecordBatchHeader(parsing: bytes) else {
            return .failure(.incomplete(available: bytes.count, needed: RecordBatchHeader.size))
        }
        guard header.magic == RecordBatchHeader.currentMagic else { return .failure(.badMagic(header.magic)) }
        let covered = UnsafeRawBufferPointer(rebasing: bytes[RecordBatchHeader.crcStart..<total])
        let computed = CRC32C.checksum(covered)
        guard computed == header.crc else { return .failure(.crcMismatch(stored: header.crc, computed: computed)) }
        guard header.lastOffsetDelta >= 0, header.recordCount >= 0,
            Int64(header.recordCount) <= Int64(header.lastOffsetDelta) + 1
        else {
            return .failure(.badRecordCount(count: header.recordCount, lastOffsetDelta: header.lastOffsetDelta))
        }
        // The offset after the batch must be an Int64 too: every reader and the repair go on
        // from `lastOffset + 1`.
        guard header.baseOffset >= 0, header.baseOffset < Int64.max - Int64(header.lastOffsetDelta) else {
            return .failure(.offsetsOutOfRange(baseOffset: header.baseOffset, lastOffsetDelta: header.lastOffsetDelta))
        }
        if let expectedBaseOffset, header.baseOffset != expectedBaseOffset {
            return .failure(.offsetDiscontinuity(expected: expectedBaseOffset, found: header.baseOffset))
        }
        guard let codec = header.compression else { return .failure(.unsupportedCodec(header.attributes & 0x07)) }
        if codec == .lz4, header.recordCount > 0 {
            let records = UnsafeRawBufferPointer(rebasing: bytes[RecordBatchHeader.size..<total])
            if let problem = frameHeaderProblem(records) { return .failure(.badFrameHeader(problem)) }
        }
        return .success(header)
    }

    /// What is wrong with the LZ4 frame descriptor at the start of `bytes`, if anything.
    static func frameHeaderProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 7 else { return "\(bytes.count) bytes cannot hold a frame header" }
        guard bytes[0] == 0x04, bytes[1] == 0x22, bytes[2] == 0x4D, bytes[3] == 0x18 else {
            return "no LZ4 frame magic number"
        }
        let flags = bytes[4], blockDescriptor = bytes[5]
        guard flags >> 6 == 0b01 else { return "frame version \(flags >> 6), expected 1" }
        guard flags & 0b10 == 0, blockDescriptor & 0x8F == 0 else { return "reserved bits are set" }
        guard (4...7).contains(blockDescriptor >> 4) else { return "block size id \(blockDescriptor >> 4)" }
        return nil
    }
}
