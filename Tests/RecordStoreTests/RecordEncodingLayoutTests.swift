import Foundation
@testable import RecordStore
import Testing

/// The bytes FORMAT.md shows, so the document and the code cannot drift apart.
@Suite struct RecordEncodingLayoutTests {
    private let zone = ZoneID(zoneName: "Notes")

    @Test("the documented example record encodes to the documented bytes")
    func documentedExample() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: zone))
        record["title"] = .string("Hi")
        record["pinned"] = .bool(true)
        record["rank"] = .int64(-3)
        record["folder"] = .reference(Reference(recordID: RecordID(recordName: "f1", zoneID: zone), action: .deleteSelf))
        record["tags"] = .list([.string("a"), .string("bc")])
        let stored = record.stored(
            created: Date(timeIntervalSince1970: 1_700_000_000), modified: nil, tag: "7")
        let expected: [UInt8] = [
            0x01,                                   // version
            0x04, 0x4E, 0x6F, 0x74, 0x65,           // record type "Note"
            0x05,                                   // flags: creation date, change tag
            0x80, 0xA0, 0xAB, 0xFE, 0xF9, 0x62,     // creation date 1,700,000,000,000 ms, zigzag varint
            0x01, 0x37,                             // change tag "7"
            0x05,                                   // 5 fields
            0x06, 0x66, 0x6F, 0x6C, 0x64, 0x65, 0x72, 0x07, 0x01, 0x02, 0x66, 0x31,  // folder: reference deleteSelf "f1"
            0x06, 0x70, 0x69, 0x6E, 0x6E, 0x65, 0x64, 0x04, 0x01,                    // pinned: bool true
            0x04, 0x72, 0x61, 0x6E, 0x6B, 0x02, 0x05,                                // rank: int64 -3 (zigzag 5)
            0x04, 0x74, 0x61, 0x67, 0x73, 0x09, 0x02, 0x01, 0x01, 0x61, 0x02, 0x62, 0x63,  // tags: list of 2 strings
            0x05, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x01, 0x02, 0x48, 0x69,              // title: string "Hi"
        ]
        #expect(try RecordCodec.encode(stored) == expected)
    }

    @Test("doubles and locations are 8-byte big-endian IEEE 754")
    func bigEndianDoubles() throws {
        var record = Record(recordType: "P", recordID: RecordID(recordName: "p"))
        record["d"] = .double(1.0)
        record["l"] = .location(Location(latitude: -2.0, longitude: 0.5))
        let bytes = try RecordCodec.encode(record)
        let fields = Array(bytes.dropFirst(5))  // version, type "P", flags, count
        #expect(fields == [
            0x01, 0x64, 0x03, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0,
            0x01, 0x6C, 0x08, 0xC0, 0x00, 0, 0, 0, 0, 0, 0, 0x3F, 0xE0, 0, 0, 0, 0, 0, 0,
        ])
    }
}
