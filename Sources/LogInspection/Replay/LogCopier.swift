import RecordLog

/// Copies a partition's events below `end` into an empty partition, batch by batch, checking
/// that every event gets its original offset.
struct LogCopier {
    let source: Partition
    let target: Partition
    let end: Int64

    func copy(progress: ProgressTracker) async throws {
        var next = source.startOffset
        while next < end {
            let batches = try source.batches(from: next, maxBytes: 4 << 20)
            guard !batches.isEmpty else { return }
            for batch in batches where next < end {
                var builder = RecordBatchBuilder()
                var offsets: [Int64] = []
                try batch.forEachRecord { record in
                    guard record.offset >= next, record.offset < end else { return }
                    builder.append(
                        key: record.key.map(Array.init), value: record.value.map(Array.init), headers: record.headers,
                        timestamp: record.timestamp)
                    offsets.append(record.offset)
                    progress.step()
                }
                next = min(batch.header.lastOffset + 1, end)
                guard let first = offsets.first, let last = offsets.last else { continue }
                let written = try await target.append(builder)
                guard written == first..<(last + 1) else {
                    throw ReplayError.exportOffsetMismatch(zone: source.name, expected: first, got: written.lowerBound)
                }
            }
        }
    }
}
