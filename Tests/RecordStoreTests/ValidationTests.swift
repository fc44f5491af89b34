import Foundation
import RecordStore
import Testing

@Suite struct ValidationTests {
    private func record(type: String = "Note", name: String = "n1", zone: ZoneID = Sample.zone) -> Record {
        Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone))
    }

    private func record(with value: FieldValue, key: String = "value") -> Record {
        var record = record()
        record[key] = value
        return record
    }

    private let longest = "a" + String(repeating: "x", count: 254)

    @Test("field keys: an ASCII letter, then letters, digits and underscores, up to 255", arguments: [
        "a", "Z", "a_1", "camelCase", "x__", String("a" + String(repeating: "x", count: 254)),
    ])
    func acceptedKeys(key: String) throws {
        #expect(Record.isValidFieldKey(key))
        try record(with: .int64(1), key: key).validate()
    }

    @Test("field keys that are empty, too long, start with _ or a digit, or hold other characters are rejected", arguments: [
        "", String("a" + String(repeating: "x", count: 255)), "_reserved", "1st", "a-b", "a b", "é", "a.b", "ключ",
    ])
    func rejectedKeys(key: String) {
        #expect(!Record.isValidFieldKey(key))
        #expect(throws: RecordStoreError.self) { try record(with: .int64(1), key: key).validate() }
    }

    @Test("record types follow the field key rule")
    func recordTypes() throws {
        try record(type: "Note_2").validate()
        try record(type: longest).validate()
        for bad in ["", "_Note", "2Note", "Note Type", longest + "x"] {
            #expect(throws: RecordStoreError.self, "\(bad)") { try record(type: bad).validate() }
        }
    }

    @Test("record names: 1 to 255 ASCII characters, not starting with _")
    func recordNames() throws {
        for good in ["a", "note-1", "with space/and:punct", longest, "x_"] {
            try RecordID(recordName: good).validate()
        }
        for bad in ["", "_a", longest + "x", "ñ", "note✓"] {
            let error = #expect(throws: RecordStoreError.self, "\(bad)") { try RecordID(recordName: bad).validate() }
            #expect(error?.code == .invalidArguments)
        }
    }

    @Test("a generated record name is a UUID and valid")
    func generatedName() throws {
        let id = RecordID(zoneID: Sample.zone)
        #expect(UUID(uuidString: id.recordName) != nil)
        #expect(id.zoneID == Sample.zone)
        #expect(RecordID().recordName != RecordID().recordName)
        try id.validate()
    }

    @Test("zone names: 1 to 255 ASCII characters, no leading _ except the default zone")
    func zoneNames() throws {
        try ZoneID.default.validate()
        #expect(ZoneID.default.zoneName == "_defaultZone")
        #expect(ZoneID.default.ownerName == "__defaultOwner__")
        #expect(ZoneID(zoneName: "Notes").ownerName == "__defaultOwner__")
        for good in ["Notes", "a", longest] { try ZoneID(zoneName: good).validate() }
        for bad in ["", "_private", longest + "x", "Zoné"] {
            #expect(throws: RecordStoreError.self, "\(bad)") { try ZoneID(zoneName: bad).validate() }
        }
    }

    @Test("owner names: 1 to 255 bytes, and may start with _ as CloudKit user names do")
    func ownerNames() throws {
        try ZoneID(zoneName: "Notes", ownerName: "_a1b2c3").validate()
        try ZoneID(zoneName: "Notes", ownerName: String(repeating: "o", count: 255)).validate()
        #expect(throws: RecordStoreError.self) { try ZoneID(zoneName: "Notes", ownerName: "").validate() }
        #expect(throws: RecordStoreError.self) {
            try ZoneID(zoneName: "Notes", ownerName: String(repeating: "o", count: 256)).validate()
        }
    }

    @Test("a record's ID and zone are validated with it")
    func recordIDInRecord() {
        #expect(throws: RecordStoreError.self) { try record(name: "_x").validate() }
        #expect(throws: RecordStoreError.self) { try record(zone: ZoneID(zoneName: "")).validate() }
    }

    @Test("a list holds values of one kind; empty lists and lists of differently typed lists are fine")
    func homogeneousLists() throws {
        try record(with: .list([.int64(1), .int64(2)])).validate()
        try record(with: .list([])).validate()
        try record(with: .list([.list([.int64(1)]), .list([.string("a")])])).validate()
        let mixed = #expect(throws: RecordStoreError.self) { try record(with: .list([.int64(1), .double(2)])).validate() }
        #expect(mixed?.code == .invalidArguments)
        #expect(mixed?.message.contains("one kind") == true)
        #expect(throws: RecordStoreError.self) {
            try record(with: .list([.list([.bool(true), .string("no")])])).validate()
        }
    }

    @Test("lists may nest up to the maximum depth")
    func listDepth() throws {
        func nested(_ depth: Int) -> FieldValue {
            depth == 0 ? .int64(1) : .list([nested(depth - 1)])
        }
        try record(with: nested(RecordLimits.maximumListDepth)).validate()
        #expect(throws: RecordStoreError.self) { try record(with: nested(RecordLimits.maximumListDepth + 1)).validate() }
    }

    @Test("references stay within the record's zone")
    func referencesWithinZone() throws {
        let inZone = Reference(recordID: RecordID(recordName: "folder", zoneID: Sample.zone))
        try record(with: .reference(inZone)).validate()
        try record(with: .list([.reference(inZone)])).validate()
        let elsewhere = Reference(recordID: RecordID(recordName: "folder", zoneID: ZoneID(zoneName: "Other")))
        let error = #expect(throws: RecordStoreError.self) { try record(with: .reference(elsewhere)).validate() }
        #expect(error?.code == .invalidArguments)
        #expect(error?.recordID == RecordID(recordName: "n1", zoneID: Sample.zone))
        #expect(throws: RecordStoreError.self) { try record(with: .list([.reference(elsewhere)])).validate() }
        let badName = Reference(recordID: RecordID(recordName: "_folder", zoneID: Sample.zone))
        #expect(throws: RecordStoreError.self) { try record(with: .reference(badName)).validate() }
    }

    @Test("dates between Date.distantPast and Date.distantFuture are accepted, others rejected")
    func dateRange() throws {
        try record(with: .date(.distantPast)).validate()
        try record(with: .date(.distantFuture)).validate()
        #expect(throws: RecordStoreError.self) { try record(with: .date(Date.distantFuture.addingTimeInterval(1))).validate() }
        #expect(throws: RecordStoreError.self) { try record(with: .date(Date.distantPast.addingTimeInterval(-1))).validate() }
        #expect(throws: RecordStoreError.self) { try record(with: .date(Date(timeIntervalSince1970: .nan))).validate() }
    }

    @Test("locations within -90...90 and -180...180 are accepted, others and NaN rejected")
    func locationRange() throws {
        try record(with: .location(Location(latitude: 90, longitude: -180))).validate()
        try record(with: .location(Location(latitude: -90, longitude: 180))).validate()
        for bad in [Location(latitude: 90.0.nextUp, longitude: 0), Location(latitude: 0, longitude: (-180.0).nextDown),
                    Location(latitude: .nan, longitude: 0), Location(latitude: 0, longitude: .infinity)] {
            #expect(throws: RecordStoreError.self) { try record(with: .location(bad)).validate() }
        }
    }

    @Test("encoding validates: an invalid record appends nothing")
    func encodeValidates() {
        var buffer: [UInt8] = [1, 2, 3]
        let error = #expect(throws: RecordStoreError.self) {
            try RecordCodec.encode(record(with: .int64(1), key: "_bad"), into: &buffer)
        }
        #expect(error?.code == .invalidArguments)
        #expect(buffer == [1, 2, 3])
    }

    @Test("validation messages say what is wrong and what to do")
    func messages() {
        let error = #expect(throws: RecordStoreError.self) { try record(with: .int64(1), key: "1st").validate() }
        #expect(error?.message.contains("\"1st\"") == true)
        #expect(error?.message.contains("start with an ASCII letter") == true)
    }
}
