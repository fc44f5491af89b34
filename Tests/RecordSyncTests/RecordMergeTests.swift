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

@Suite("Sync: edit stamps")
struct SyncAuthorTests {
    @Test("the later edit wins; in the same millisecond the greater device identity, whichever side merges")
    func order() {
        let early = SyncAuthor(editedAt: 1000, device: [1, 2])
        let late = SyncAuthor(editedAt: 2000, device: [0, 0])
        #expect(late.isLater(than: early))
        #expect(!early.isLater(than: late))
        let one = SyncAuthor(editedAt: 3000, device: [1, 9])
        let two = SyncAuthor(editedAt: 3000, device: [2, 0])
        #expect(two.isLater(than: one) && !one.isLater(than: two))
        #expect(!one.isLater(than: one))
    }

    @Test("a device's store stamps every app save in a synced zone with its identity and the time, and the remote keeps the stamp; before the zone is synced a save carries none")
    func stamps() async throws {
        let world = try await SyncWorld.make(devices: 1)
        defer { try? world.close() }
        let device = world.devices[0]
        _ = try await device.save(Record(recordType: "Note", recordID: RecordID(recordName: "before", zoneID: SyncWorld.zone)))
        #expect(try await device.record(for: RecordID(recordName: "before", zoneID: SyncWorld.zone)).syncAuthor == nil)
        try await world.engines[0].fetchChanges()  // every zone becomes synced
        let start = Int64(Date().timeIntervalSince1970 * 1000)
        let saved = try await device.save(Record(recordType: "Note", recordID: RecordID(recordName: "after", zoneID: SyncWorld.zone)))
        let stamp = try #require(saved.syncAuthor)
        #expect(stamp.device == device.storeIdentity)
        #expect(stamp.editedAt >= start - 1)
        try await world.engines[0].sendChanges()
        // The remote keeps the device's stamp.
        #expect(try await world.remote.record(for: RecordID(recordName: "after", zoneID: SyncWorld.zone)).syncAuthor == stamp)
    }
}

@Suite("Sync: system fields in the record encoding")
struct SyncSystemFieldEncodingTests {
    @Test("a record's sync change tag and author round-trip through the value encoding, byte for byte (FORMAT.md §9 bits 3 and 4)")
    func roundTrip() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes")))
        record["title"] = .string("Hi")
        record.syncChangeTag = "1-zz"
        record.setSyncAuthor(SyncAuthor(editedAt: 1_700_000_000_000, device: [0xAB, 0xCD]))
        let bytes = try RecordCodec.encode(record)
        // version, type "Note", flags 0x18, sync tag "1-zz", zigzag(1.7e12), device length 2, AB CD, then 1 field.
        #expect(Array(bytes.prefix(7)) == [0x01, 0x04, 0x4E, 0x6F, 0x74, 0x65, 0x18])
        #expect(Array(bytes[7..<12]) == [0x04] + Array("1-zz".utf8))
        #expect(Array(bytes[12..<18]) == [0x80, 0xA0, 0xAB, 0xFE, 0xF9, 0x62])
        #expect(Array(bytes[18..<21]) == [0x02, 0xAB, 0xCD])
        let decoded = try RecordCodec.decode(bytes, recordID: record.recordID)
        #expect(decoded.syncChangeTag == "1-zz")
        #expect(decoded.syncAuthor == SyncAuthor(editedAt: 1_700_000_000_000, device: [0xAB, 0xCD]))
        #expect(try RecordCodec.encode(decoded) == bytes)
    }
}
