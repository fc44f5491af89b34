import Foundation
@testable import RecordStore

enum Sample {
    static let zone = ZoneID(zoneName: "Notes")
    /// A date on a whole millisecond, so it survives the codec unchanged.
    static let date = Date(timeIntervalSince1970: 1_700_000_000.123)

    /// A record holding one field of every kind, nested lists, and all system fields.
    static func everyKind() -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "note-1", zoneID: zone))
        record["title"] = .string("Groceries — ünïcödé ✓")
        record["count"] = .int64(-42)
        record["big"] = .int64(.max)
        record["small"] = .int64(.min)
        record["ratio"] = .double(-0.5)
        record["done"] = .bool(true)
        record["due"] = .date(date)
        record["blob"] = .bytes([0, 1, 2, 255])
        record["folder"] = .reference(Reference(recordID: RecordID(recordName: "folder-1", zoneID: zone), action: .deleteSelf))
        record["place"] = .location(Location(latitude: 48.8566, longitude: 2.3522))
        record["tags"] = .list([.string("home"), .string("")])
        record["matrix"] = .list([.list([.int64(1), .int64(2)]), .list([]), .list([.list([.bool(false)])])])
        record["empty"] = .list([])
        return record.stored(created: date, modified: date.addingTimeInterval(60), tag: "tag-7")
    }
}

extension Record {
    /// This record as the store would return it: system fields set, no changed keys.
    func stored(created: Date?, modified: Date?, tag: String?) -> Record {
        var copy = self
        copy.creationDate = created
        copy.modificationDate = modified
        copy.recordChangeTag = tag
        copy.clearChangedKeys()
        return copy
    }
}

/// The UTF-8 bytes of an ASCII string literal, for hand-built encodings.
func ascii(_ string: String) -> [UInt8] { Array(string.utf8) }
