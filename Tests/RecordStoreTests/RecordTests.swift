import Foundation
import RecordStore
import Testing

@Suite struct RecordTests {
    private let id = RecordID(recordName: "n1", zoneID: Sample.zone)

    @Test("a new record has its type and ID, no fields and no system fields")
    func newRecord() {
        let record = Record(recordType: "Note", recordID: id)
        #expect(record.recordType == "Note")
        #expect(record.recordID == id)
        #expect(record.allKeys() == [])
        #expect(record.changedKeys() == [])
        #expect(record.creationDate == nil && record.modificationDate == nil && record.recordChangeTag == nil)
        let inZone = Record(recordType: "Note", zoneID: Sample.zone)
        #expect(inZone.recordID.zoneID == Sample.zone)
        #expect(UUID(uuidString: inZone.recordID.recordName) != nil)
    }

    @Test("the subscript sets, replaces and removes fields; allKeys lists what has a value, sorted")
    func subscriptAndAllKeys() {
        var record = Record(recordType: "Note", recordID: id)
        record["title"] = .string("a")
        record["body"] = .string("b")
        record["title"] = .string("c")
        #expect(record["title"] == .string("c"))
        #expect(record["missing"] == nil)
        #expect(record.allKeys() == ["body", "title"])
        record["body"] = nil
        #expect(record["body"] == nil)
        #expect(record.allKeys() == ["title"])
    }

    @Test("changedKeys lists keys set or removed since creation, sorted, even when set to nil")
    func changedKeysOnNewRecord() {
        var record = Record(recordType: "Note", recordID: id)
        record["title"] = .string("a")
        record["body"] = .string("b")
        record["title"] = .string("again")
        record["gone"] = nil
        #expect(record.changedKeys() == ["body", "gone", "title"])
    }

    @Test("a key removed and set again, or set and removed, is listed once, in order with the others")
    func changedKeysRemovedAndSetAgain() throws {
        var record = try RecordCodec.decode(try RecordCodec.encode(Sample.everyKind()), recordID: Sample.everyKind().recordID)
        let keys = record.allKeys()
        let (first, last) = (try #require(keys.first), try #require(keys.last))
        record[first] = nil
        record[first] = .string("back")
        record[last] = .string("changed")
        record[last] = nil
        record["aaa"] = nil
        record["zzz"] = .bool(true)
        #expect(record.changedKeys() == ["aaa", first, last, "zzz"].sorted())
        let restored = try JSONDecoder().decode(Record.self, from: try JSONEncoder().encode(record))
        #expect(restored.changedKeys() == record.changedKeys(), "removed keys survive Codable too")
    }

    @Test("a record returned by the store has no changed keys until one is set")
    func changedKeysAfterFetch() throws {
        let stored = try RecordCodec.decode(try RecordCodec.encode(Sample.everyKind()), recordID: Sample.everyKind().recordID)
        #expect(stored.changedKeys() == [])
        var edited = stored
        edited["title"] = .string("new")
        edited["count"] = nil
        #expect(edited.changedKeys() == ["count", "title"])
        #expect(stored.changedKeys() == [], "a copy's edits do not leak into the original")
    }

    @Test("equality compares content, not changed keys")
    func equalityIgnoresChangedKeys() throws {
        var built = Record(recordType: "Note", recordID: id)
        built["title"] = .string("a")
        let fetched = try RecordCodec.decode(try RecordCodec.encode(built), recordID: id)
        #expect(built == fetched)
        #expect(built.hashValue == fetched.hashValue)
        var other = fetched
        other["title"] = .string("b")
        #expect(other != fetched)
        var otherType = Record(recordType: "Folder", recordID: id)
        otherType["title"] = .string("a")
        #expect(otherType != built)
    }

    @Test("Codable keeps fields, system fields and changed keys")
    func codable() throws {
        var record = Sample.everyKind()
        record["title"] = .string("edited")
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record.self, from: data)
        #expect(decoded == record)
        #expect(decoded.changedKeys() == ["title"])
        #expect(decoded.recordChangeTag == "tag-7")
        #expect(decoded.allKeys() == record.allKeys())
    }

    @Test("field values compare what is stored: doubles by bits, strings by bytes")
    func fieldValueEquality() {
        #expect(FieldValue.double(.nan) == .double(.nan))
        #expect(FieldValue.double(0.0) != .double(-0.0))
        #expect(FieldValue.string("\u{E9}") != .string("e\u{301}"), "é precomposed and decomposed are stored differently")
        #expect(FieldValue.int64(1) != .double(1))
        #expect(FieldValue.list([.int64(1)]) == .list([.int64(1)]))
        #expect(Set([FieldValue.double(.nan), .double(.nan)]).count == 1)
        #expect(Location(latitude: 0.0, longitude: 0) != Location(latitude: -0.0, longitude: 0))
    }

    @Test("a value reports its kind")
    func kinds() {
        #expect(FieldValue.list([.string("a")]).kind == .list)
        #expect(FieldValue.reference(Reference(recordID: id)).kind == .reference)
        #expect(Reference(record: Record(recordType: "Folder", recordID: id), action: .deleteSelf).recordID == id)
    }

    @Test("record IDs of one name in different zones (or owners) are different keys, though hashed alike")
    func idsOfOneNameInTwoZones() {
        let other = RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Other"))
        let owned = RecordID(recordName: "n1", zoneID: ZoneID(zoneName: Sample.zone.zoneName, ownerName: "someone"))
        #expect(id != other && id != owned && other != owned)
        #expect(id.hashValue == other.hashValue)
        #expect(Set([id, other, owned, id]).count == 3)
        let results: [RecordID: Int] = [id: 1, other: 2, owned: 3]
        #expect(results[id] == 1 && results[other] == 2 && results[owned] == 3)
    }
}
