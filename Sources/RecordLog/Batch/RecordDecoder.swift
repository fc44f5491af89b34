/// Decodes the records of a decompressed records section, checking every length.
enum RecordDecoder {
    static func decode(_ section: [UInt8], header: RecordBatchHeader, _ body: (LogRecord) throws -> Void) throws {
        try section.withUnsafeBytes { raw in
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
                let key = try readBytes(&record, from: section, what: "key", index: index)
                let value = try readBytes(&record, from: section, what: "value", index: index)
                guard let headerCount = record.readVarint(), headerCount >= 0, Int(headerCount) <= record.remaining else {
                    throw malformed("record \(index): bad header count")
                }
                var headers: [LogHeader] = []
                if headerCount > 0 { headers.reserveCapacity(Int(headerCount)) }
                for _ in 0..<Int(headerCount) {
                    guard let keyLength = record.readVarint(), keyLength >= 0,
                        let keyRange = record.readRange(count: Int(keyLength)),
                        let name = String(validating: section[keyRange], as: UTF8.self)
                    else { throw malformed("record \(index): bad header key") }
                    let value = try readBytes(&record, from: section, what: "header value", index: index)
                    headers.append(LogHeader(key: name, value: value.map(Array.init)))
                }
                guard record.position == end else { throw malformed("record \(index): \(end - record.position) stray bytes") }
                reader = ByteReader(raw, position: end)
                let (timestamp, overflow) = header.firstTimestamp.addingReportingOverflow(timestampDelta)
                guard !overflow else { throw malformed("record \(index): timestamp overflows") }
                try body(
                    LogRecord(
                        offset: header.baseOffset + Int64(offsetDelta), timestamp: timestamp,
                        key: key, value: value, headers: headers))
            }
            guard reader.isAtEnd else { throw malformed("\(reader.remaining) bytes follow the last record") }
        }
    }

    /// A varint length then that many bytes; length -1 is null.
    private static func readBytes(
        _ reader: inout ByteReader, from section: [UInt8], what: String, index: Int
    ) throws -> ArraySlice<UInt8>? {
        guard let length = reader.readVarint(), length >= -1 else { throw malformed("record \(index): bad \(what) length") }
        if length == -1 { return nil }
        guard let range = reader.readRange(count: Int(length)) else { throw malformed("record \(index): \(what) runs past the record") }
        return section[range]
    }

    private static func malformed(_ reason: String) -> LogError {
        .malformedBatch(reason: reason)
    }
}
