import Foundation
@testable import RecordStore
import Testing
import TuningSupport

@Suite("Typed records: Codable mapping", .everyTuning)
struct TypedCodableTests {
    let zone = ZoneID(zoneName: "Typed")

    /// The model as the store gives it back: dates on whole milliseconds, system dates set.
    private func stored(_ model: EveryKindModel, from record: Record) -> EveryKindModel {
        func millis(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000) }
        var expected = model
        expected.when = millis(model.when)
        expected.dates = model.dates.map(millis)
        expected.optionalDate = model.optionalDate.map(millis)
        expected.createdAt = record.creationDate
        expected.modifiedAt = record.modificationDate
        return expected
    }

    @Test("every field type round-trips through the store, optionals present and absent", arguments: StoreKind.allCases, [true, false])
    func roundTripThroughStore(kind: StoreKind, optionals: Bool) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.createZone(zone)
            _ = try await database.save(Record(recordType: "Target", recordID: RecordID(recordName: "target", zoneID: zone)))
            let model = EveryKindModel.sample(zone: zone, optionals: optionals)
            let saved = try await database.save(try model.encodedRecord(in: zone))
            let fetched = try await database.record(for: saved.recordID)
            let decoded = try EveryKindModel(decoding: fetched)
            #expect(decoded == stored(model, from: fetched))
            #expect(decoded.createdAt != nil && decoded.modifiedAt != nil)
            #expect(decoded.optionalText == (optionals ? "here" : nil))
            #expect(decoded.optionalTags == (optionals ? [] : nil))
        }
    }

    @Test("each Swift type maps to its field kind; nil optionals and system dates are not fields")
    func fieldKinds() throws {
        let record = try EveryKindModel.sample(zone: zone, optionals: false).encodedRecord(in: zone)
        #expect(record.recordType == "EveryKind")
        #expect(record.recordID == RecordID(recordName: "every-1", zoneID: zone))
        #expect(record["text"] == .string("Crème brûlée ✓"))
        #expect(record["int"] == .int64(-42))
        #expect(record["int8"] == .int64(-8))
        #expect(record["int32"] == .int64(Int64(Int32.max)))
        #expect(record["uint16"] == .int64(65535))
        #expect(record["uint64"] == .int64(.max))
        #expect(record["double"] == .double(-0.5))
        #expect(record["float"] == .double(1.5))
        #expect(record["flag"] == .bool(true))
        #expect(record["when"] == .date(Date(timeIntervalSince1970: 1_700_000_000.123)))
        #expect(record["data"] == .bytes([0, 1, 2, 255]))
        #expect(record["bytes"] == .bytes([9, 8, 7]))
        #expect(record["linkedID"] == .reference(Reference(recordID: RecordID(recordName: "target", zoneID: zone))))
        #expect(record["place"] == .location(Location(latitude: 48.8566, longitude: 2.3522)))
        #expect(record["tags"] == .list([.string("home"), .string(""), .string("weekly")]))
        #expect(record["matrix"] == .list([.list([.int64(1), .int64(2)]), .list([]), .list([.int64(3)])]))
        #expect(record["status"] == .string("published"))
        #expect(record["uuid"] == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(record["raw"] == .list([.bool(false)]))
        for absent in ["id", "optionalText", "optionalInt", "optionalDate", "optionalPlace", "optionalTags", "createdAt", "modifiedAt"] {
            #expect(record[absent] == nil, "\(absent) should not be a field")
        }
        try record.validate()
    }

    @Test("dates keep millisecond precision", arguments: StoreKind.allCases)
    func millisecondDates(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var model = EveryKindModel.sample(zone: .default, optionals: true)
            model.link = Reference(recordID: RecordID(recordName: "target"))
            model.linkedID = RecordID(recordName: "target")
            model.when = Date(timeIntervalSince1970: 1_700_000_000.1234)
            _ = try await database.save(Record(recordType: "Target", recordID: RecordID(recordName: "target")))
            let saved = try await database.save(try model.encodedRecord())
            let decoded = try EveryKindModel(decoding: try await database.record(for: saved.recordID))
            #expect(decoded.when.timeIntervalSince1970 == 1_700_000_000.123)
            #expect(decoded.optionalDate == Date(timeIntervalSince1970: 86_400.5))
        }
    }

    @Test("a record without a non-optional field fails naming it")
    func missingField() throws {
        var record = try TypedNote(id: "n1", folder: "f1", title: "Hi").encodedRecord(in: zone)
        record["title"] = nil
        #expect(throws: RecordMappingError.missingField("title")) { try TypedNote(decoding: record) }
        do {
            _ = try TypedNote(decoding: record)
        } catch let error as RecordMappingError {
            #expect(error.field == "title")
            #expect(error.description.contains("\"title\""))
        }
    }

    @Test("a field of the wrong kind fails naming the field, the expected and the found kinds")
    func wrongType() throws {
        var record = try TypedNote(id: "n1", folder: "f1", title: "Hi", tags: ["a", "b"]).encodedRecord(in: zone)
        record["rank"] = .string("first")
        #expect(throws: RecordMappingError.typeMismatch(field: "rank", expected: "an int64", found: .string)) {
            try TypedNote(decoding: record)
        }
        record["rank"] = .int64(1)
        record["tags"] = .list([.string("a"), .int64(2)])
        #expect(throws: RecordMappingError.typeMismatch(field: "tags[1]", expected: "a string", found: .int64)) {
            try TypedNote(decoding: record)
        }
        record["tags"] = .string("a")
        #expect(throws: RecordMappingError.typeMismatch(field: "tags", expected: "a list", found: .string)) {
            try TypedNote(decoding: record)
        }
    }

    @Test("an integer that does not fit its property fails on decoding; a UInt64 above Int64.max on encoding")
    func outOfRange() throws {
        var record = try EveryKindModel.sample(zone: zone, optionals: false).encodedRecord(in: zone)
        record["int8"] = .int64(300)
        #expect(throws: RecordMappingError.valueOutOfRange(field: "int8", value: "300", type: "Int8")) {
            try EveryKindModel(decoding: record)
        }
        var model = EveryKindModel.sample(zone: zone, optionals: false)
        model.uint64 = .max
        #expect(throws: RecordMappingError.valueOutOfRange(field: "uint64", value: "\(UInt64.max)", type: "Int64")) {
            try model.encodedRecord(in: zone)
        }
    }

    @Test("a record of another type fails")
    func wrongRecordType() throws {
        let record = Record(recordType: "Folder", recordID: RecordID(recordName: "f1"))
        #expect(throws: RecordMappingError.wrongRecordType(expected: "Note", found: "Folder")) { try TypedNote(decoding: record) }
    }

    struct Nested: RecordCodable {
        struct Inner: Codable { var x: Int }
        enum Fields: String, CaseIterable { case id, inner }
        static let recordType = "Nested"
        var id: String
        var inner: Inner
    }

    struct Undeclared: RecordCodable {
        enum Fields: String, CaseIterable { case id }
        static let recordType = "Undeclared"
        var id: String
        var extra: Int
    }

    @Test("nested structs and keys missing from Fields are refused with a clear error")
    func unsupported() throws {
        #expect(throws: RecordMappingError.self) { try Nested(id: "a", inner: .init(x: 1)).encodedRecord() }
        do {
            _ = try Nested(id: "a", inner: .init(x: 1)).encodedRecord()
        } catch let error as RecordMappingError {
            #expect(error.field == "inner")
            #expect(error.description.contains("nested struct"))
        }
        #expect(throws: RecordMappingError.unknownField("extra")) { try Undeclared(id: "a", extra: 1).encodedRecord() }
    }

    @Test("a String reference field is stored as a reference with its action in the record's zone, and read back")
    func referenceFields() throws {
        let record = try TypedNote(id: "n1", folder: "f1", title: "Hi").encodedRecord(in: zone)
        #expect(record["folder"] == .reference(Reference(recordID: RecordID(recordName: "f1", zoneID: zone), action: .deleteSelf)))
        #expect(try TypedNote(decoding: record).folder == "f1")
    }

    struct Keyed: RecordCodable, Equatable {
        enum Fields: String, CaseIterable { case key, label }
        static let recordType = "Keyed"
        static let identifierField: Fields? = .key
        var key: RecordID
        var label: String
    }

    @Test("a RecordID identifier names the record in its own zone; a renamed identifier field works")
    func recordIDIdentifier() throws {
        let id = RecordID(recordName: "k1", zoneID: zone)
        let record = try Keyed(key: id, label: "x").encodedRecord()
        #expect(record.recordID == id)
        #expect(record.allKeys() == ["label"])
        #expect(try Keyed(decoding: record) == Keyed(key: id, label: "x"))
    }

    @Test("encoding onto a fetched record changes only what changed and keeps the change tag", arguments: StoreKind.allCases)
    func updating(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            _ = try await database.save(Record(recordType: "Folder", recordID: RecordID(recordName: "f1")))
            var note = TypedNote(id: "n1", folder: "f1", title: "Hi", tags: ["a"], rank: 1)
            let saved = try await database.save(try note.encodedRecord())
            note.title = "Hello"
            let updated = try note.encodedRecord(updating: saved)
            #expect(updated.changedKeys() == ["title"])
            #expect(updated.recordChangeTag == saved.recordChangeTag)
            let resaved = try await database.save(updated)
            #expect(try TypedNote(decoding: resaved).title == "Hello")
            let other = TypedNote(id: "n2", folder: "f1", title: "x")
            #expect(throws: RecordMappingError.self) { try other.encodedRecord(updating: saved) }
        }
    }
}
