import RecordLog

/// The size of a record in a batch's (uncompressed) records section, recomputed from its parts
/// (Kafka v2 record layout, FORMAT.md §3.2), for the raw-bytes figure of `summary`.
enum RecordSize {
    /// Bytes `record` takes in a batch whose base offset and first timestamp are given.
    static func encoded(_ record: LogRecord, baseOffset: Int64, baseTimestamp: Int64) -> Int {
        var body = 1 + varlong(record.timestamp &- baseTimestamp) + varlong(record.offset &- baseOffset)
        body += lengthPrefixed(record.key.map(\.count)) + lengthPrefixed(record.value.map(\.count))
        body += varlong(Int64(record.headers.count))
        for header in record.headers {
            body += lengthPrefixed(header.key.utf8.count) + lengthPrefixed(header.value?.count)
        }
        return varlong(Int64(body)) + body
    }

    /// A length (−1 for null) and the bytes it counts.
    fileprivate static func lengthPrefixed(_ count: Int?) -> Int {
        guard let count else { return varlong(-1) }
        return varlong(Int64(count)) + count
    }

    /// Bytes of a zigzag varint/varlong.
    fileprivate static func varlong(_ value: Int64) -> Int {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        var bytes = 1
        while zigzag >= 0x80 {
            zigzag >>= 7
            bytes += 1
        }
        return bytes
    }
}

extension RecordSize {
    /// Bytes `record`, read in place, takes in a batch whose base offset and first timestamp are given.
    static func encoded(_ record: BorrowedLogRecord, baseOffset: Int64, baseTimestamp: Int64) -> Int {
        var body = 1 + varlong(record.timestamp &- baseTimestamp) + varlong(record.offset &- baseOffset)
        body += lengthPrefixed(record.key?.count) + lengthPrefixed(record.value?.count)
        body += varlong(Int64(record.headerCount)) + record.headersByteCount
        return varlong(Int64(body)) + body
    }
}
