/// One record of a batch read in place: no copy, no allocation.
///
/// Its bytes belong to the batch's decompressed records, which the next batch of the same scan
/// overwrites: use a borrowed record only inside the call that received it, and make a
/// ``LogRecord`` (``LogRecord/init(_:)``) of what must outlive it. Its lengths and headers were
/// checked when it was read, as for ``LogRecord``.
public struct BorrowedLogRecord {
    /// The record's position in its partition.
    public let offset: Int64
    /// Milliseconds since the Unix epoch (Kafka's CreateTime).
    public let timestamp: Int64
    /// The decompressed records section the ranges below point into.
    let section: UnsafeRawBufferPointer
    let keyRange: Range<Int>?
    let valueRange: Range<Int>?
    /// The headers, after their count: each a varint key length, the key, a varint value length
    /// (-1 for null) and the value, already checked.
    let headersRange: Range<Int>
    /// How many headers the record has.
    public let headerCount: Int

    /// The key bytes, or nil for a null key.
    public var key: UnsafeRawBufferPointer? {
        keyRange.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
    }

    /// The value bytes, or nil for a tombstone.
    public var value: UnsafeRawBufferPointer? {
        valueRange.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
    }

    /// Whether this record deletes its key (a null value).
    public var isTombstone: Bool { valueRange == nil }

    /// The value of the first header named `name` (compared as UTF-8 bytes); nil when there is
    /// no such header or its value is null.
    public func headerValue(_ name: String) -> UnsafeRawBufferPointer? {
        var name = name
        return name.withUTF8 { headerValue(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The value of the first header whose name has exactly the bytes `wanted`; nil when there
    /// is no such header or its value is null. A loop of its own, not ``forEachHeader(_:)``'s
    /// closure: a store reads an event's kind from a header of every record it reads.
    public func headerValue(utf8 wanted: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: section[..<headersRange.upperBound]), position: headersRange.lowerBound)
        for _ in 0..<headerCount {
            // Checked when the record was read: a failure here cannot happen, and just stops.
            guard let keyLength = reader.readVarint(), let keyRange = reader.readRange(count: Int(keyLength)),
                let valueLength = reader.readVarint()
            else { return nil }
            let valueRange = valueLength >= 0 ? reader.readRange(count: Int(valueLength)) : nil
            guard valueLength < 0 || valueRange != nil else { return nil }
            if UnsafeRawBufferPointer(rebasing: section[keyRange]).hasSameBytes(as: wanted) {
                return valueRange.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
            }
        }
        return nil
    }

    /// The headers, in the order they were written, as allocated values.
    public var headers: [LogHeader] {
        var headers: [LogHeader] = []
        headers.reserveCapacity(headerCount)
        forEachHeader { key, value in
            headers.append(LogHeader(key: String(decoding: key, as: UTF8.self), value: value.map(Array.init)))
            return true
        }
        return headers
    }

    /// Calls `body` with each header's key and value (nil when null) until it returns false.
    private func forEachHeader(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) -> Bool) {
        var reader = ByteReader(UnsafeRawBufferPointer(rebasing: section[..<headersRange.upperBound]), position: headersRange.lowerBound)
        for _ in 0..<headerCount {
            // Checked when the record was read: a failure here cannot happen, and just stops.
            guard let keyLength = reader.readVarint(), let keyRange = reader.readRange(count: Int(keyLength)),
                let valueLength = reader.readVarint()
            else { return }
            var value: UnsafeRawBufferPointer?
            if valueLength >= 0 {
                guard let valueRange = reader.readRange(count: Int(valueLength)) else { return }
                value = UnsafeRawBufferPointer(rebasing: section[valueRange])
            }
            guard body(UnsafeRawBufferPointer(rebasing: section[keyRange]), value) else { return }
        }
    }
}

extension LogRecord {
    /// A record that owns copies of a borrowed record's bytes.
    public init(_ record: BorrowedLogRecord) {
        self.init(
            offset: record.offset, timestamp: record.timestamp, key: record.key.map { Array($0)[...] },
            value: record.value.map { Array($0)[...] }, headers: record.headers)
    }
}
