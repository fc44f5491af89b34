import RecordLog

/// Reads saved records from a zone's partition by offset. A batch (one commit) is compressed as a
/// whole, so reading one record decodes its batch: the reader keeps the batches it decoded most
/// recently (up to `cacheLimit` bytes of values and 256 batches), so a query reading many records
/// of the same commits decodes each commit about once, whatever order it reads them in.
struct SavedRecordReader: Sendable {
    /// The most batches kept decoded (the cache is searched linearly).
    static let maximumBatches = 256

    private struct Decoded: Sendable {
        var offsets: ClosedRange<Int64>
        var records: [LogRecord]
        var valueBytes: Int
    }

    let partition: any LogPartition
    let zoneID: ZoneID
    /// The most value bytes kept decoded; the last batch read is kept whatever its size.
    let cacheLimit: Int
    /// Most recently used last.
    private var cache: [Decoded] = []
    private var cachedBytes = 0

    init(partition: any LogPartition, zoneID: ZoneID, cacheLimit: Int = 32 << 20) {
        self.partition = partition
        self.zoneID = zoneID
        self.cacheLimit = cacheLimit
    }

    /// The record named `name` saved at `offset`.
    ///
    /// - Throws: `internalError` when no saved record is there, or the log's or decoder's error.
    mutating func record(named name: String, at offset: Int64) throws -> Record {
        let batch = try decodedBatch(holding: offset)
        let records = batch.records
        let guess = Int(offset - (records.first?.offset ?? offset))
        let event = records.indices.contains(guess) && records[guess].offset == offset ? records[guess] : records.first { $0.offset == offset }
        guard let value = event?.value else { throw missing(name, offset) }
        return try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID))
    }

    private mutating func decodedBatch(holding offset: Int64) throws -> Decoded {
        if let index = cache.lastIndex(where: { $0.offsets.contains(offset) }) {
            let hit = cache.remove(at: index)
            cache.append(hit)
            return hit
        }
        guard let batch = try partition.batches(from: offset, maxBytes: 1).first else {
            throw RecordStoreError(.internalError, "The log of zone \(zoneID) ends before offset \(offset).")
        }
        let records = try batch.records()
        let decoded = Decoded(
            offsets: batch.header.baseOffset...batch.header.lastOffset, records: records,
            valueBytes: records.reduce(0) { $0 + ($1.value?.count ?? 0) })
        cache.append(decoded)
        cachedBytes += decoded.valueBytes
        while cachedBytes > cacheLimit || cache.count > Self.maximumBatches, cache.count > 1 {
            cachedBytes -= cache.removeFirst().valueBytes
        }
        return decoded
    }

    private func missing(_ name: String, _ offset: Int64) -> RecordStoreError {
        RecordStoreError(.internalError, "The log of zone \(zoneID) holds no saved record \(name) at offset \(offset).")
    }
}
