import RecordStore
import Testing

@Suite struct RecordSizeLimitTests {
    private let id = RecordID(recordName: "big")

    /// A "Blob" record whose one bytes field makes the value `size` bytes long.
    /// Overhead: version 1, type 1+4, flags 1, count 1, key 1+4, tag 1, 3-byte length = 17 bytes.
    private func blob(encodedSize size: Int) -> Record {
        var record = Record(recordType: "Blob", recordID: id)
        record["data"] = .bytes([UInt8](repeating: 0xAB, count: size - 17))
        return record
    }

    @Test("a record that encodes to exactly 1 MB is accepted and decodes")
    func atLimit() throws {
        let record = blob(encodedSize: RecordLimits.maximumEncodedRecordSize)
        let bytes = try RecordCodec.encode(record)
        #expect(bytes.count == 1_048_576)
        #expect(try RecordCodec.decode(bytes, recordID: id) == record)
    }

    @Test("a record one byte over 1 MB throws limitExceeded and appends nothing")
    func overLimit() {
        var buffer: [UInt8] = [7]
        let error = #expect(throws: RecordStoreError.self) {
            try RecordCodec.encode(blob(encodedSize: RecordLimits.maximumEncodedRecordSize + 1), into: &buffer)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.recordID == id)
        #expect(error?.message.contains("1048577 bytes") == true)
        #expect(buffer == [7])
    }
}
