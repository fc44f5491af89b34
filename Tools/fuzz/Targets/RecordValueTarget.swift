import Foundation
import RecordStore

/// A record's value bytes, as every read of a saved record decodes them. A value that decodes
/// must encode back to exactly its bytes (RecordCodec's doc): a second way to write one record
/// would make two stores of the same records differ.
enum RecordValueTarget {
    static let recordID = RecordID(recordName: "fuzz-record", zoneID: ZoneID(zoneName: "Fuzz"))

    static func run(_ input: [UInt8]) {
        guard let record = try? RecordCodec.decode(input, recordID: recordID) else { return }
        let encoded: [UInt8]
        do {
            encoded = try RecordCodec.encode(record)
        } catch {
            require(false, "a decoded record does not encode: \(error)")
            return
        }
        require(encoded == input, "a decoded record encodes to other bytes (\(encoded.count) for \(input.count))")
    }

    static func accepts(_ input: [UInt8]) -> Bool {
        (try? RecordCodec.decode(input, recordID: recordID)) != nil
    }

    static func seeds() throws -> [(name: String, bytes: [UInt8])] {
        var note = Record(recordType: "Note", recordID: recordID)
        note["title"] = .string("Buy milk")
        note["content"] = .string("and eggs — café")
        note["count"] = .int64(-42)
        note["ratio"] = .double(0.25)
        note["done"] = .bool(true)
        note["due"] = .date(Date(timeIntervalSince1970: 1_700_000_000.5))
        note["blob"] = .bytes([0, 1, 2, 255])
        note["folder"] = .reference(Reference(recordID: RecordID(recordName: "folder-1", zoneID: recordID.zoneID), action: .deleteSelf))
        note["place"] = .location(Location(latitude: 48.85, longitude: 2.35))
        note["tags"] = .list([.string("a"), .string("b")])
        let empty = Record(recordType: "Empty", recordID: recordID)
        return [("note-all-types", try RecordCodec.encode(note)), ("empty", try RecordCodec.encode(empty))]
    }
}
