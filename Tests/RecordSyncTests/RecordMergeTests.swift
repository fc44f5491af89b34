import Foundation
import RecordStore
import RecordSync
import Testing

@Suite("Sync: the default three-way merge")
struct RecordMergeTests {
    /// A record with the given fields and modification date (milliseconds since 1970), as a store
    /// would return it (through its Codable form, which carries the system fields).
    func record(_ fields: [String: String], modified: Int64) throws -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        for (key, value) in fields { record[key] = .string(value) }
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        json["modificationDate"] = Date(timeIntervalSince1970: Double(modified) / 1000).timeIntervalSinceReferenceDate
        json["recordChangeTag"] = "1-\(modified)"
        json["changedKeys"] = [String]()
        return try JSONDecoder().decode(Record.self, from: JSONSerialization.data(withJSONObject: json))
    }

    @Test("keys changed on one side take that side's value; on both, the later modification's")
    func fieldByField() throws {
        let ancestor = try record(["title": "A", "body": "x", "tag": "t"], modified: 1000)
        let local = try record(["title": "B", "body": "x", "tag": "local"], modified: 3000)
        let server = try record(["title": "A", "body": "y", "tag": "server"], modified: 2000)
        let merged = RecordMerge.threeWay(
            SyncConflict(serverRecord: server, localRecord: local, ancestorRecord: ancestor, localChangedKeys: ["tag", "title"]))
        #expect(merged["title"] == .string("B"))
        #expect(merged["body"] == .string("y"))
        #expect(merged["tag"] == .string("local"))
        let older = try record(["title": "A", "body": "x", "tag": "local"], modified: 1500)
        let second = RecordMerge.threeWay(
            SyncConflict(serverRecord: server, localRecord: older, ancestorRecord: ancestor, localChangedKeys: ["tag"]))
        #expect(second["tag"] == .string("server"))
    }

    @Test("a key removed on one side stays removed unless the other side changed it")
    func removals() throws {
        let ancestor = try record(["title": "A", "body": "x"], modified: 1000)
        let local = try record(["title": "A"], modified: 3000)
        let server = try record(["title": "C", "body": "x"], modified: 2000)
        let merged = RecordMerge.threeWay(
            SyncConflict(serverRecord: server, localRecord: local, ancestorRecord: ancestor, localChangedKeys: ["body"]))
        #expect(merged["body"] == nil)
        #expect(merged["title"] == .string("C"))
    }

    @Test("edits in the same millisecond converge: both devices compute the same winner", arguments: [("a", "b"), ("b", "a"), ("zz", "zy")])
    func tiesConverge(first: String, second: String) throws {
        let ancestor = try record(["tag": "t"], modified: 1000)
        let one = try record(["tag": first], modified: 2000)
        let two = try record(["tag": second], modified: 2000)
        let onOne = RecordMerge.threeWay(SyncConflict(serverRecord: two, localRecord: one, ancestorRecord: ancestor, localChangedKeys: ["tag"]))
        let onTwo = RecordMerge.threeWay(SyncConflict(serverRecord: one, localRecord: two, ancestorRecord: ancestor, localChangedKeys: ["tag"]))
        #expect(onOne["tag"] == onTwo["tag"])
    }

    @Test("without an ancestor, the remote's keys count as changed there and the local changed keys here")
    func noAncestor() throws {
        let local = try record(["title": "mine", "extra": "local only"], modified: 3000)
        let server = try record(["title": "theirs", "other": "server only"], modified: 2000)
        let merged = RecordMerge.threeWay(
            SyncConflict(serverRecord: server, localRecord: local, ancestorRecord: nil, localChangedKeys: ["extra", "title"]))
        #expect(merged["title"] == .string("mine"))
        #expect(merged["extra"] == .string("local only"))
        #expect(merged["other"] == .string("server only"))
    }
}
