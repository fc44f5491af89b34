/// What a compaction will do, found in one pass over the sealed segments: each key's latest
/// event, how many records each segment keeps, which leading segments are left empty, and how
/// the rest group into cleaned segments (Kafka's `groupSegmentsBySize`).
struct CleanerPlan {
    /// Each key's latest event.
    var map = OffsetMap()
    var recordsRead = 0
    var recordsRemoved = 0
    var tombstonesDropped = 0
    /// One past the last tombstone dropped; 0 when none is.
    var expiryOffset: Int64 = 0
    /// How many segments at the start keep no record: removed whole.
    var leadingEmpty = 0
    /// The base offset of the first segment that keeps a record; nil when none does.
    var logStartOffset: Int64?
    /// Ranges of segment indices, each cleaned into one segment. A single segment that loses
    /// nothing is not rewritten, unless its batches are small commits (``SmallBatches``), which
    /// the rewrite merges.
    var groups: [Range<Int>] = []

    /// Plans the compaction of `segments` (consecutive, sealed).
    ///
    /// - Parameter stillWanted: called between batches; throws to stop (the log is closing).
    /// - Parameter keptHeader: the last record carrying it, and the records of its batch stamped
    ///   with its timestamp (its commit, FORMAT.md §10.1), are kept whatever the rules say.
    init(
        segments: [LogSegment], tombstoneCutoff: Int64, keptHeader: String? = nil, options: LogOptions,
        stillWanted: () throws -> Void
    ) throws {
        let bases = segments.map(\.baseOffset)
        var records = [Int](repeating: 0, count: segments.count)
        var removed = [Int](repeating: 0, count: segments.count)
        var batches = [Int](repeating: 0, count: segments.count)
        /// Each segment's bytes of records (keys, values, headers), uncompressed.
        var recordBytes = [Int](repeating: 0, count: segments.count)
        /// The index of the segment holding `offset`.
        func segmentIndex(_ offset: Int64) -> Int {
            var low = 0, high = bases.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if bases[middle] <= offset { low = middle } else { high = middle }
            }
            return low
        }
        map = OffsetMap(keptHeader: keptHeader)
        var buffer: [UInt8] = []
        for (index, segment) in segments.enumerated() {
            try segment.forEachBatch(maxBatchBytes: options.maxBatchBytes) { batch in
                try stillWanted()
                batches[index] += 1
                map.startBatch()
                try batch.forEachRecordInPlace(maxDecompressedBytes: options.maxDecompressedBytes, buffer: &buffer) { record in
                    records[index] += 1
                    recordBytes[index] += (record.key?.count ?? 0) + (record.value?.count ?? 0) + record.headersByteCount
                    if let replaced = map.note(record) { removed[segmentIndex(replaced)] += 1 }
                }
            }
        }
        // Pinned events were counted as removed when a later event of their key came: they stay.
        for offset in map.pinnedButReplaced() { removed[segmentIndex(offset)] -= 1 }
        for offset in map.expiredTombstones(cutoff: tombstoneCutoff) {
            removed[segmentIndex(offset)] += 1
            tombstonesDropped += 1
            expiryOffset = max(expiryOffset, offset + 1)
        }
        recordsRead = records.reduce(0, +)
        recordsRemoved = removed.reduce(0, +)
        let kept = zip(records, removed).map { $0 - $1 }
        leadingEmpty = kept.prefix { $0 == 0 }.count
        logStartOffset = leadingEmpty < segments.count ? segments[leadingEmpty].baseOffset : nil

        // Groups: consecutive segments whose kept bytes (estimated) fit one segment, and whose
        // offsets fit one segment's relative offsets.
        var start = leadingEmpty
        var estimate: Int64 = 0
        /// Whether segment `index` holds small commits: at least twice as many batches as its
        /// records fill at ``CleanedSegmentWriter/targetBatchBytes`` each. Merged, they compress;
        /// a segment a compaction wrote is never rewritten for this again.
        func holdsSmallBatches(_ index: Int) -> Bool {
            let needed = (recordBytes[index] + CleanedSegmentWriter.targetBatchBytes - 1) / CleanedSegmentWriter.targetBatchBytes
            return batches[index] > 1 && batches[index] >= 2 * max(needed, 1)
        }
        func close(_ end: Int) {
            guard end > start else { return }
            if end - start > 1 || removed[start] > 0 || holdsSmallBatches(start) { groups.append(start..<end) }
            start = end
            estimate = 0
        }
        for index in leadingEmpty..<segments.count {
            let segment = segments[index]
            let share = records[index] == 0 ? 0 : segment.size * Int64(kept[index]) / Int64(records[index])
            let span = segment.nextOffset - segments[start].baseOffset
            if index > start, estimate + share > Int64(options.effectiveSegmentBytes) || span > options.maxOffsetsPerSegment {
                close(index)
            }
            estimate += share
        }
        close(segments.count)
    }
}
