import StorageKit
/// One record of a batch read in place: no copy, no allocation.
///
/// Its bytes belong to the batch's decompressed records, which the next batch of the same scan
/// overwrites: use a borrowed record only inside the call that received it, and make a
/// ``LogRecord`` (``LogRecord/init(_:)``) of what must outlive it. Its lengths and headers were
/// checked when it was read, as for ``LogRecord``.
@usableFromInline package struct BorrowedLogRecord {
    /// The record's position in its partition.
    package let offset: Int64
    /// Milliseconds since the Unix epoch (Kafka's CreateTime).
    package let timestamp: Int64
    /// The decompressed records section the ranges below point into.
    @usableFromInline let section: UnsafeRawBufferPointer
    @usableFromInline let keyRange: Range<Int>?
    @usableFromInline let valueRange: Range<Int>?
    /// The headers, after their count: each a varint key length, the key, a varint value length
    /// (-1 for null) and the value, already checked.
    @usableFromInline let headersRange: Range<Int>
    /// How many headers the record has.
    @usableFromInline package let headerCount: Int

    /// The key bytes, or nil for a null key.
    @inlinable
    package var key: UnsafeRawBufferPointer? {
        keyRange.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
    }

    /// The value bytes, or nil for a tombstone.
    @inlinable
    package var value: UnsafeRawBufferPointer? {
        valueRange.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
    }

    /// Whether this record deletes its key (a null value).
    @inlinable
    package var isTombstone: Bool { valueRange == nil }

    /// The value of the first header named `name` (compared as UTF-8 bytes); nil when there is
    /// no such header or its value is null.
    package func headerValue(_ name: String) -> UnsafeRawBufferPointer? {
        var name = name
        return name.withUTF8 { headerValue(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The value of the first header whose name has exactly the bytes `wanted`; nil when there
    /// is no such header or its value is null. A plain loop, not ``forEachHeader(_:)``'s closure:
    /// a store reads an event's kind from a header of every record it reads.
    @inlinable
    package func headerValue(utf8 wanted: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var reader = headersReader
        for _ in 0..<headerCount {
            guard let (key, value) = nextHeader(&reader) else { return nil }
            if UnsafeRawBufferPointer(rebasing: section[key]).hasSameBytes(as: wanted) {
                return value.map { UnsafeRawBufferPointer(rebasing: section[$0]) }
            }
        }
        return nil
    }

    /// The headers, in the order they were written, as allocated values.
    package var headers: [LogHeader] {
        var headers: [LogHeader] = []
        headers.reserveCapacity(headerCount)
        forEachHeader { key, value in
            headers.append(LogHeader(key: String(decoding: key, as: UTF8.self), value: value.map(Array.init)))
            return true
        }
        return headers
    }

    /// The bytes its headers take in the records section, after their count: with the key and
    /// value lengths, what a tool measuring records in place needs to know a record's size.
    package var headersByteCount: Int { headersRange.count }

    /// Calls `body` with each header's key and value (nil when null) until it returns false.
    package func forEachHeader(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) -> Bool) {
        var reader = headersReader
        for _ in 0..<headerCount {
            guard let (key, value) = nextHeader(&reader),
                body(UnsafeRawBufferPointer(rebasing: section[key]), value.map { UnsafeRawBufferPointer(rebasing: section[$0]) })
            else { return }
        }
    }

    /// A reader at the first header.
    @usableFromInline
    var headersReader: ByteReader {
        ByteReader(UnsafeRawBufferPointer(rebasing: section[..<headersRange.upperBound]), position: headersRange.lowerBound)
    }

    /// The next header's key range and value range (nil when null). The headers were checked
    /// when the record was read: nil (their end reached too soon) cannot happen, and stops a loop.
    @usableFromInline
    func nextHeader(_ reader: inout ByteReader) -> (key: Range<Int>, value: Range<Int>?)? {
        guard let keyLength = reader.readVarint(), let key = reader.readRange(count: Int(keyLength)),
            let valueLength = reader.readVarint()
        else { return nil }
        guard valueLength >= 0 else { return (key, nil) }
        guard let value = reader.readRange(count: Int(valueLength)) else { return nil }
        return (key, value)
    }
}

extension LogRecord {
    /// A record that owns copies of a borrowed record's bytes.
    package init(_ record: BorrowedLogRecord) {
        self.init(
            offset: record.offset, timestamp: record.timestamp, key: record.key.map { Array($0)[...] },
            value: record.value.map { Array($0)[...] }, headers: record.headers)
    }
}
