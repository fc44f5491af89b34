import Testing
@testable import RecordLog

@Suite struct EncodedLogHeadersTests {
    @Test("events appended with headers encoded beforehand encode to the same bytes as with LogHeader values")
    func sameBytesAsLogHeaders() throws {
        let shared = [LogHeader(key: "event", string: "save"), LogHeader(key: "recordType", string: "Note"), LogHeader(key: "nil", value: nil)]
        var plain = RecordBatchBuilder()
        var encoded = RecordBatchBuilder()
        var prefix = EncodedLogHeaders()
        for header in shared { prefix.append(header) }
        var headers = EncodedLogHeaders()
        for index in 0..<50 {
            let tag = "1-\(index)"
            let value: [UInt8]? = index % 7 == 3 ? nil : Array("value \(index)".utf8)
            plain.append(key: "note-\(index)", value: value, headers: shared + [LogHeader(key: "changeTag", string: tag)], timestamp: 1_000 + Int64(index))
            headers.removeAll()
            headers.append(contentsOf: prefix)
            headers.append(key: "changeTag", string: tag)
            #expect(headers.count == 4)
            if let value {
                value.withUnsafeBytes { encoded.append(key: "note-\(index)", value: $0, headers: headers, timestamp: 1_000 + Int64(index)) }
            } else {
                encoded.append(key: "note-\(index)", value: nil, headers: headers, timestamp: 1_000 + Int64(index))
            }
        }
        #expect(try encoded.encode().bytes == plain.encode().bytes)
        let records = try RecordBatch(bytes: encoded.encode().bytes[...]).records()
        #expect(records.count == 50)
        #expect(records[3].isTombstone)
        #expect(records[10].headers == shared + [LogHeader(key: "changeTag", string: "1-10")])
    }
}
