extension Partition {
    /// A consistent view of the segments for one read; appends continue meanwhile.
    private struct Snapshot {
        var segments: [SegmentState]
        var start: Int64 { segments.first?.baseOffset ?? 0 }
        var end: Int64 { segments.last?.nextOffset ?? 0 }
    }

    private func snapshot() -> Snapshot {
        Snapshot(segments: state.withLock { $0.segments })
    }

    /// Whole batches holding the offsets from `offset` on, about `maxBytes` of them (always at
    /// least one batch when any offset at or after `offset` exists). Every batch is validated
    /// again (CRC, offsets) as it is read.
    ///
    /// - Throws: `LogError.offsetOutOfRange` outside `startOffset...endOffset`;
    ///   `LogError.corruptBatch` when the disk no longer holds what was written.
    public func batches(from offset: Int64, maxBytes: Int = 1 << 20) throws -> [RecordBatch] {
        let view = snapshot()
        guard offset >= view.start, offset <= view.end else {
            throw LogError.offsetOutOfRange(offset: offset, start: view.start, end: view.end)
        }
        var batches: [RecordBatch] = []
        var budget = maxBytes
        guard var index = view.segments.lastIndex(where: { $0.baseOffset <= offset }) else { return [] }
        var position = view.segments[index].indexer.offsetIndex.startPosition(for: offset - view.segments[index].baseOffset)
        while index < view.segments.count, budget > 0 || batches.isEmpty {
            let segment = view.segments[index]
            if position >= segment.size {
                index += 1
                position = 0
                continue
            }
            let want = Int(min(segment.size - position, Int64(max(budget, RecordBatchHeader.size))))
            var chunk = try segment.file.read(at: position, count: want)
            var local = 0
            while local < chunk.count, budget > 0 || batches.isEmpty {
                let declared = chunk.withUnsafeBytes { ByteReader($0).getInteger(at: local + 8, as: Int32.self) }
                if let declared, local + RecordBatchHeader.logOverhead + Int(max(0, declared)) > chunk.count {
                    // The batch continues past this chunk: read it whole, if it is within the segment.
                    let total = Int64(RecordBatchHeader.logOverhead) + Int64(max(0, declared))
                    guard position + Int64(local) + total <= segment.size else { break }
                    if batches.isEmpty || budget >= Int(total) {
                        position += Int64(local)
                        chunk = try segment.file.read(at: position, count: Int(total))
                        local = 0
                    } else {
                        budget = 0
                        break
                    }
                }
                let checked = chunk.withUnsafeBytes {
                    BatchValidation.check(UnsafeRawBufferPointer(rebasing: $0[local...]), maxBatchBytes: options.maxBatchBytes)
                }
                guard case .success(let header) = checked else {
                    let problem: BatchProblem
                    if case .failure(let failure) = checked { problem = failure } else { problem = .badLength(0) }
                    throw LogError.corruptBatch(
                        file: segment.path, position: position + Int64(local), offset: offset, reason: problem.description)
                }
                if header.lastOffset >= offset {
                    batches.append(RecordBatch(validated: header, bytes: chunk[local..<(local + header.totalSize)]))
                    budget -= header.totalSize
                }
                local += header.totalSize
            }
            position += Int64(local)
        }
        return batches
    }

    /// Calls `body` with every record in `from..<to` (to the end when `to` is nil), in offset
    /// order; `body` returns false to stop early.
    public func forEachRecord(
        from: Int64, to: Int64? = nil, _ body: (LogRecord) throws -> Bool
    ) throws {
        var next = from
        let end = min(to ?? endOffset, endOffset)
        while next < end {
            let batches = try batches(from: next, maxBytes: 4 << 20)
            guard !batches.isEmpty else { return }
            for batch in batches {
                var keepGoing = true
                try batch.forEachRecord(maxDecompressedBytes: options.maxDecompressedBytes) { record in
                    guard keepGoing, record.offset >= next, record.offset < end else { return }
                    keepGoing = try body(record)
                }
                if !keepGoing { return }
                next = batch.header.lastOffset + 1
                if next >= end { return }
            }
        }
    }

    /// The records in `from..<to` (to the end when `to` is nil), at most `limit` of them.
    public func records(from: Int64, to: Int64? = nil, limit: Int = .max) throws -> [LogRecord] {
        var records: [LogRecord] = []
        try forEachRecord(from: from, to: to) { record in
            records.append(record)
            return records.count < limit
        }
        return records
    }

    /// The first offset whose record has a timestamp at or after `timestamp`, or `endOffset`
    /// when none has (Kafka's ListOffsets by timestamp).
    public func offset(forTimestamp timestamp: Int64) throws -> Int64 {
        let view = snapshot()
        guard let segmentIndex = view.segments.firstIndex(where: { $0.indexer.maxTimestamp >= timestamp }) else {
            return view.end
        }
        let segment = view.segments[segmentIndex]
        var from = segment.baseOffset
        if let entry = segment.indexer.timeIndex.lastEntry(before: timestamp) {
            from = segment.baseOffset + Int64(entry.relativeOffset) + 1
        }
        var found: Int64 = view.end
        try forEachRecord(from: from, to: view.end) { record in
            if record.timestamp >= timestamp {
                found = record.offset
                return false
            }
            return true
        }
        return found
    }
}
