import StorageKit

// Appending: a batch's bytes at the segment's end, with the zeros written ahead of it and the
// index entries it earns.
extension LogSegment {
    /// Writes `batch` at the end of the segment with the next offsets; returns them.
    ///
    /// The file is first written ahead with zeros (`preallocationBytes` at a time, never past
    /// `segmentBytes` unless the batch itself goes further) so that small appends do not grow it.
    /// On a failed write the segment is unchanged and no partial batch is left behind.
    ///
    /// - Throws: the write's error; `LogError.malformedBatch` for bytes that are not a batch.
    mutating func append(_ batch: EncodedBatch, preallocationBytes: Int, segmentBytes: Int) throws -> Range<Int64> {
        let baseOffset = nextOffset
        let position = size
        indexFilesCurrent = false
        try preallocate(through: position + Int64(batch.bytes.count), preallocationBytes: preallocationBytes, segmentBytes: segmentBytes)
        // The base offset is outside the CRC: write it in front of the encoded bytes, one syscall.
        var baseField = baseOffset.bigEndian
        do {
            try withUnsafeBytes(of: &baseField) { base in
                try batch.bytes.withUnsafeBytes { encoded in
                    try file.write([base, UnsafeRawBufferPointer(rebasing: encoded[8...])], at: position)
                }
            }
        } catch {
            // Best effort: leave no partial batch behind (zeros, as preallocated, are harmless).
            if allocated > position {
                try? file.write([UInt8](repeating: 0, count: batch.bytes.count), at: position)
            } else {
                try? file.truncate(to: position)
            }
            throw error
        }
        guard let header = batch.bytes.withUnsafeBytes({ RecordBatchHeader(parsing: $0) }) else {
            throw LogError.malformedBatch(reason: "encoded batch has no header")
        }
        var placed = header
        placed.baseOffset = baseOffset
        indexer.didAppend(placed, at: position)
        size += Int64(batch.bytes.count)
        allocated = max(allocated, size)
        nextOffset = placed.lastOffset + 1
        if firstTimestamp == nil { firstTimestamp = batch.firstTimestamp }
        checkInvariants()
        return baseOffset..<nextOffset
    }

    /// Writes zeros ahead of the appends so that the next ones do not grow the file.
    private mutating func preallocate(through end: Int64, preallocationBytes: Int, segmentBytes: Int) throws {
        guard preallocationBytes > 0, end > allocated else { return }
        let limit = max(end, Int64(segmentBytes))
        let target = min(max(end, allocated + Int64(preallocationBytes)), limit)
        let start = max(allocated, size)
        guard target > start else { return }
        // From one shared run of zeros: a fresh megabyte array per call cost page
        // faults and a memset on every preallocation.
        var position = start
        while position < target {
            let count = Int(min(target - position, Int64(Self.zeros.count)))
            try Self.zeros.withUnsafeBytes { zeros in
                try file.write([UnsafeRawBufferPointer(rebasing: zeros[0..<count])], at: position)
            }
            position += Int64(count)
        }
        allocated = target
    }

    /// Zeros written ahead of the active segment's end, in pieces of at most this size.
    private static let zeros = [UInt8](repeating: 0, count: 1 << 20)

    /// Cuts the zeros written ahead of the valid batches.
    mutating func cutPreallocation() throws {
        guard allocated > size else { return }
        try file.truncate(to: size)
        allocated = size
    }
}
