import StorageKit
/// Decodes the records of a decompressed records section, checking every length.
enum RecordDecoder {
    /// Reads every record in place, in offset order.
    static func walk(
        _ raw: UnsafeRawBufferPointer, header: RecordBatchHeader, _ body: (BorrowedLogRecord) throws -> Void
    ) throws {
        var reader = ByteReader(raw)
        var previousDelta: Int32 = -1
        for index in 0..<Int(header.recordCount) {
            guard let length = reader.readVarint(), length >= 0, Int(length) <= reader.remaining else {
                throw malformed("record \(index): bad length")
            }
            let end = reader.position + Int(length)
            var record = ByteReader(UnsafeRawBufferPointer(rebasing: raw[0..<end]), position: reader.position)
            guard record.readInteger(as: Int8.self) != nil,
                let timestampDelta = record.readVarlong(),
                let offsetDelta = record.readVarint()
            else { throw malformed("record \(index): truncated fields") }
            guard offsetDelta > previousDelta, offsetDelta <= header.lastOffsetDelta else {
                throw malformed("record \(index): offset delta \(offsetDelta) out of order")
            }
            previousDelta = offsetDelta
            let key = try readBytes(&record, what: "key", index: index)
            let value = try readBytes(&record, what: "value", index: index)
            guard let headerCount = record.readVarint(), headerCount >= 0, Int(headerCount) <= record.remaining else {
                throw malformed("record \(index): bad header count")
            }
            let headersStart = record.position
            for _ in 0..<Int(headerCount) {
                guard let keyLength = record.readVarint(), keyLength >= 0,
                    let keyRange = record.readRange(count: Int(keyLength)),
                    isValidUTF8(UnsafeRawBufferPointer(rebasing: raw[keyRange]))
                else { throw malformed("record \(index): bad header key") }
                _ = try readBytes(&record, what: "header value", index: index)
            }
            guard record.position == end else { throw malformed("record \(index): \(end - record.position) stray bytes") }
            reader = ByteReader(raw, position: end)
            let (timestamp, overflow) = header.firstTimestamp.addingReportingOverflow(timestampDelta)
            guard !overflow else { throw malformed("record \(index): timestamp overflows") }
            try body(
                BorrowedLogRecord(
                    offset: header.baseOffset + Int64(offsetDelta), timestamp: timestamp, section: raw,
                    keyRange: key, valueRange: value, headersRange: headersStart..<end, headerCount: Int(headerCount)))
        }
        guard reader.isAtEnd else { throw malformed("\(reader.remaining) bytes follow the last record") }
    }

    /// Decodes every record into values that share `section`'s storage.
    static func decode(_ section: [UInt8], header: RecordBatchHeader, _ body: (LogRecord) throws -> Void) throws {
        try section.withUnsafeBytes { raw in
            try walk(raw, header: header) { record in
                try body(
                    LogRecord(
                        offset: record.offset, timestamp: record.timestamp, key: record.keyRange.map { section[$0] },
                        value: record.valueRange.map { section[$0] }, headers: record.headers))
            }
        }
    }

    /// A varint length then that many bytes; length -1 is null.
    private static func readBytes(_ reader: inout ByteReader, what: String, index: Int) throws -> Range<Int>? {
        guard let length = reader.readVarint(), length >= -1 else { throw malformed("record \(index): bad \(what) length") }
        if length == -1 { return nil }
        guard let range = reader.readRange(count: Int(length)) else { throw malformed("record \(index): \(what) runs past the record") }
        return range
    }

    /// Whether `bytes` are valid UTF-8; header keys are short ASCII names, checked without a String.
    private static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func malformed(_ reason: String) -> LogError {
        .malformedBatch(reason: reason)
    }
}
