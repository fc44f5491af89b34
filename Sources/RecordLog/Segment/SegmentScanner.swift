import StorageKit
/// Reads a segment file batch by batch, validating each (length, magic, CRC, record count,
/// offset continuity, LZ4 frame header), in chunks rather than a read per batch — or, given the
/// file mapped (`inPlace`), in place.
struct SegmentScanner {
    static let chunkSize = 1 << 20

    struct Outcome: Sendable {
        /// The end of the last valid batch.
        var validEnd: Int64
        /// One past the last valid offset.
        var nextOffset: Int64
        var firstTimestamp: Int64?
        var batchCount = 0
        var recordCount = 0
        /// The first invalid batch, if one was met before the end of the file.
        var problem: (position: Int64, problem: BatchProblem)?

        /// Takes in the valid batch `header` that ended the outcome.
        mutating func advance(past header: RecordBatchHeader) {
            if firstTimestamp == nil { firstTimestamp = header.firstTimestamp }
            validEnd += Int64(header.totalSize)
            nextOffset = header.lastOffset + 1
            batchCount += 1
            recordCount += Int(header.recordCount)
        }
    }

    let file: OpenFile
    let fileSize: Int64
    let maxBatchBytes: Int
    /// The whole file mapped, for ``scan(from:expectedOffset:visit:)`` to read in place: no
    /// chunk copied, none allocated. Only where no other process can cut the file while it is
    /// read (a writer's open, under the store's lock): a page past a cut raises SIGBUS where a
    /// `pread` would read short.
    let inPlace: FilePass?

    init(file: OpenFile, fileSize: Int64, maxBatchBytes: Int, inPlace: FilePass? = nil) {
        self.file = file
        self.fileSize = fileSize
        self.maxBatchBytes = maxBatchBytes
        self.inPlace = inPlace
    }

    /// Scans from `position`, where a batch with `expectedOffset` must start, to the end of the
    /// file or the first invalid batch. `visit` sees each valid batch and its position.
    func scan(
        from position: Int64, expectedOffset: Int64,
        visit: (RecordBatchHeader, Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws -> Outcome {
        if let inPlace, Int64(inPlace.bytes.count) >= fileSize {
            return try scan(inPlace, from: position, expectedOffset: expectedOffset, visit: visit)
        }
        var outcome = Outcome(validEnd: position, nextOffset: expectedOffset)
        var chunkStart = position
        var chunk: [UInt8] = []
        while outcome.validEnd < fileSize {
            let position = outcome.validEnd
            var local = Int(position - chunkStart)
            if chunk.count - local < RecordBatchHeader.size || chunk.isEmpty {
                chunkStart = position
                chunk = try file.read(at: position, count: Int(min(Int64(Self.chunkSize), fileSize - position)))
                local = 0
            }
            // A batch longer than what is buffered: read it whole (its size is bounded by the check).
            let declared = chunk.withUnsafeBytes { ByteReader($0).getInteger(at: local + 8, as: Int32.self) }
            if let declared, declared > 0, Int(declared) <= maxBatchBytes,
                local + RecordBatchHeader.logOverhead + Int(declared) > chunk.count,
                position + Int64(RecordBatchHeader.logOverhead) + Int64(declared) <= fileSize
            {
                chunkStart = position
                chunk = try file.read(at: position, count: RecordBatchHeader.logOverhead + Int(declared))
                local = 0
            }
            let result = try chunk.withUnsafeBytes { raw -> Result<RecordBatchHeader, BatchProblem> in
                let rest = UnsafeRawBufferPointer(rebasing: raw[local...])
                let checked = BatchValidation.check(
                    rest, maxBatchBytes: maxBatchBytes, expectedBaseOffset: outcome.nextOffset)
                if case .success(let header) = checked {
                    try visit(header, position, UnsafeRawBufferPointer(rebasing: rest[..<header.totalSize]))
                }
                return checked
            }
            switch result {
            case .success(let header):
                outcome.advance(past: header)
            case .failure(let problem):
                outcome.problem = (position, problem)
                return outcome
            }
        }
        return outcome
    }

    /// ``scan(from:expectedOffset:visit:)`` over the mapped file: each batch checked where it
    /// lies, against the rest of the file as a chunk's read would give it, and the pages let go
    /// of as the scan passes them.
    private func scan(
        _ mapped: FilePass, from position: Int64, expectedOffset: Int64,
        visit: (RecordBatchHeader, Int64, UnsafeRawBufferPointer) throws -> Void
    ) throws -> Outcome {
        var outcome = Outcome(validEnd: position, nextOffset: expectedOffset)
        let end = Int(fileSize)
        var read = Int(position)
        defer { mapped.letGo(read..<end) }
        while outcome.validEnd < fileSize {
            let start = Int(outcome.validEnd)
            let rest = UnsafeRawBufferPointer(rebasing: mapped.bytes[start..<end])
            switch BatchValidation.check(rest, maxBatchBytes: maxBatchBytes, expectedBaseOffset: outcome.nextOffset) {
            case .success(let header):
                try visit(header, outcome.validEnd, UnsafeRawBufferPointer(rebasing: rest[..<header.totalSize]))
                outcome.advance(past: header)
            case .failure(let problem):
                outcome.problem = (outcome.validEnd, problem)
                return outcome
            }
            if start - read >= Self.chunkSize {
                mapped.letGo(read..<start)
                read = start
            }
        }
        return outcome
    }

    /// The position of the first batch at or after `position` that is valid on its own (any
    /// offset), or nil when none: what tells mid-log corruption from a torn tail.
    ///
    /// A candidate that lies whole in the chunk already read is checked there; only one that
    /// runs past the chunk is read again. (Each candidate was read again with its own `pread`,
    /// though a damaged segment of a few KB is one chunk: the same bytes, a system call and a
    /// buffer more per candidate — most of a fuzzed segment's reads.)
    func firstValidBatch(from position: Int64) throws -> Int64? {
        var start = position
        while start + Int64(RecordBatchHeader.size) <= fileSize {
            let chunk = try file.read(at: start, count: Int(min(Int64(Self.chunkSize), fileSize - start)))
            let limit = chunk.count - RecordBatchHeader.size
            guard limit >= 0 else { return nil }
            for local in 0...limit where chunk[local + 16] == UInt8(RecordBatchHeader.currentMagic) {
                let candidate = start + Int64(local)
                let length = chunk.withUnsafeBytes { ByteReader($0).getInteger(at: local + 8, as: Int32.self) } ?? 0
                let total = Int64(RecordBatchHeader.logOverhead) + Int64(length)
                guard length > 0, total <= Int64(maxBatchBytes), candidate + total <= fileSize else { continue }
                let valid: Bool
                if local + Int(total) <= chunk.count {
                    valid = chunk.withUnsafeBytes { isValid(UnsafeRawBufferPointer(rebasing: $0[local..<(local + Int(total))])) }
                } else {
                    valid = try file.read(at: candidate, count: Int(total)).withUnsafeBytes { isValid($0) }
                }
                if valid { return candidate }
            }
            start += Int64(limit + 1)
        }
        return nil
    }

    /// Whether `bytes`, exactly one batch's, hold a batch valid on its own (any offset).
    private func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if case .success = BatchValidation.check(bytes, maxBatchBytes: maxBatchBytes) { return true }
        return false
    }

    /// Whether the file holds only zero bytes from `position` to its end: space a writer
    /// preallocated (`LogOptions.preallocationBytes`), not a torn write.
    func isAllZero(from position: Int64) throws -> Bool {
        var position = position
        while position < fileSize {
            let chunk = try file.read(at: position, count: Int(min(fileSize - position, Int64(Self.chunkSize))))
            guard !chunk.isEmpty else { return true }
            if chunk.contains(where: { $0 != 0 }) { return false }
            position += Int64(chunk.count)
        }
        return true
    }
}
