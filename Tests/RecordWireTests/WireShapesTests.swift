import Foundation
import RecordStore
import RecordWire
import Testing
import TestSupport

/// Records and bodies through the wire's codec: what a client writes the server reads as the
/// same value, in CloudKit Web Services' shapes.
@Suite struct WireShapesTests {
    static let zone = ZoneID(zoneName: "Notes")

    /// A random field value of any kind, lists nested up to `depth`.
    static func randomValue(_ random: inout SeededGenerator, depth: Int = 0) -> FieldValue {
        switch Int.random(in: 0..<(depth < 3 ? 10 : 8), using: &random) {
        case 0: return .string(String(decoding: random.bytes(Int.random(in: 0..<12, using: &random)).map { 32 + $0 % 90 }, as: UTF8.self))
        case 1: return .int64(Int64(bitPattern: random.next()))
        case 2: return .double(Double(bitPattern: random.next()))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .date(Date(timeIntervalSince1970: Double(Int64.random(in: -62_135_769_600_000...64_092_211_200_000, using: &random)) / 1000))
        case 5: return .bytes(random.bytes(Int.random(in: 0..<9, using: &random)))
        case 6: return .reference(Reference(recordID: RecordID(recordName: "r\(random.next() % 5)", zoneID: zone), action: Bool.random(using: &random) ? .none : .deleteSelf))
        case 7: return .location(Location(latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random)))
        case 8:
            // A list of one kind (written as <TYPE>_LIST).
            let element = randomValue(&random, depth: 3)
            return .list((0..<Int.random(in: 1..<4, using: &random)).map { _ in sameKind(as: element, &random) })
        default:
            // Empty lists and lists of lists (written as LIST).
            return .list((0..<Int.random(in: 0..<3, using: &random)).map { _ in .list([randomValue(&random, depth: depth + 1)]) })
        }
    }

    private static func sameKind(as value: FieldValue, _ random: inout SeededGenerator) -> FieldValue {
        while true {
            let candidate = randomValue(&random, depth: 3)
            if candidate.kind == value.kind { return candidate }
        }
    }

    static func randomRecord(_ random: inout SeededGenerator) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n\(random.next() % 1000)", zoneID: zone))
        for index in 0..<Int.random(in: 0..<8, using: &random) { record["k\(index)"] = randomValue(&random) }
        return record
    }

    @Test("a record as stored round-trips: every kind of value, nested lists, dates, tags, the sync author")
    func storedRecords() throws {
        var random = SeededGenerator(seed: 0x5749_0001)
        for _ in 0..<300 {
            let record = Self.randomRecord(&random)
            var writer = JSONWriter()
            record.write(to: &writer, as: .stored)
            let read = try Record(wire: try WireReader(parsing: writer.bytes), as: .stored)
            #expect(read == record, "\(String(decoding: writer.bytes, as: UTF8.self))")
            #expect(read.changedKeys().isEmpty)
        }
    }

    @Test("a save sends exactly its changed keys and the values it writes; the server reads the same changes")
    func savedRecords() throws {
        var random = SeededGenerator(seed: 0x5749_0002)
        for _ in 0..<200 {
            let record = Self.randomRecord(&random)
            var edited = try Record(wire: try WireReader(parsing: WireJSON.encode(StoredBox(record))), as: .stored)
            edited["k1"] = nil
            edited["new"] = .string("x")
            for policy in [SavePolicy.ifServerRecordUnchanged, .changedKeys, .allKeys] {
                var writer = JSONWriter()
                edited.write(to: &writer, as: .save(policy))
                let read = try Record(wire: try WireReader(parsing: writer.bytes), as: .save(policy))
                #expect(read.changedKeys() == edited.changedKeys())
                for key in edited.changedKeys() { #expect(read[key] == edited[key]) }
                if policy == .allKeys { #expect(read.allKeys() == edited.allKeys()) }
            }
        }
    }

    @Test("a save's JSON without changedKeys changes every key in fields; null removes")
    func saveWithoutChangedKeys() throws {
        let json = #"{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"a": {"value": "x", "type": "STRING"}, "b": null}}"#
        let record = try Record(wire: try WireReader(parsing: Array(json.utf8)), as: .save(.ifServerRecordUnchanged))
        #expect(record.changedKeys() == ["a", "b"])
        #expect(record["a"] == .string("x") && record["b"] == nil)
        let stored = try Record(wire: try WireReader(parsing: Array(json.utf8)), as: .stored)
        #expect(stored.changedKeys().isEmpty)
    }

    @Test("field values are written in CloudKit Web Services' shapes")
    func fieldShapes() {
        func text(_ value: FieldValue) -> String {
            var writer = JSONWriter()
            value.write(to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        #expect(text(.string("Buy milk")) == #"{"value":"Buy milk","type":"STRING"}"#)
        #expect(text(.int64(-3)) == #"{"value":-3,"type":"INT64"}"#)
        #expect(text(.double(.nan)) == #"{"value":"nan","type":"DOUBLE"}"#)
        #expect(text(.bool(true)) == #"{"value":true,"type":"BOOLEAN"}"#)
        #expect(text(.date(Date(timeIntervalSince1970: 1.5))) == #"{"value":1500,"type":"TIMESTAMP"}"#)
        #expect(text(.bytes([0, 255])) == #"{"value":"AP8=","type":"BYTES"}"#)
        #expect(
            text(.reference(Reference(recordID: RecordID(recordName: "f", zoneID: Self.zone), action: .deleteSelf)))
                == #"{"value":{"recordName":"f","zoneID":{"zoneName":"Notes"},"action":"DELETE_SELF"},"type":"REFERENCE"}"#)
        #expect(text(.location(Location(latitude: 1, longitude: -2))) == #"{"value":{"latitude":1.0,"longitude":-2.0},"type":"LOCATION"}"#)
        #expect(text(.list([.string("a"), .string("b")])) == #"{"value":["a","b"],"type":"STRING_LIST"}"#)
        #expect(text(.list([])) == #"{"value":[],"type":"LIST"}"#)
        #expect(text(.list([.list([.int64(1)])])) == #"{"value":[{"value":[1],"type":"INT64_LIST"}],"type":"LIST"}"#)
    }

    @Test("every RecordStoreError code has its own serverErrorCode and comes back as itself", arguments: RecordStoreError.Code.allCases)
    func errorCodesRoundTrip(code: RecordStoreError.Code) throws {
        let id = RecordID(recordName: "r", zoneID: Self.zone)
        var record = Record(recordType: "T", recordID: id)
        record["x"] = .double(.nan)
        let inner = RecordStoreError(.batchRequestFailed, "other item", recordID: id, zoneID: Self.zone)
        let error = RecordStoreError(
            code, "message", recordID: id, zoneID: Self.zone, serverRecord: record, clientRecord: record, ancestorRecord: nil,
            partialErrors: [id: inner])
        let body = ErrorBody(error, requestID: "req")
        let decoded = try WireJSON.decode(ErrorBody.self, from: WireJSON.encode(body))
        #expect(decoded == body)
        let back = try #require(decoded.recordStoreError)
        #expect(back.code == code && back.message == "message" && back.recordID == id && back.zoneID == Self.zone)
        #expect(back.serverRecord == record && back.clientRecord == record && back.ancestorRecord == nil)
        #expect(back.clientRecord?.changedKeys() == ["x"])
        #expect(back.partialErrors == [id: inner])
        #expect(ServerErrorCode(code).recordStoreCode == code)
        #expect((400..<600).contains(ServerErrorCode(code).httpStatus))
    }

    @Test("the server's own codes are 4xx or 503, and map to no store error")
    func serverCodes() {
        for code in ServerErrorCode.allCases where code.recordStoreCode == nil {
            #expect((400..<500).contains(code.httpStatus) || code.httpStatus == 503)
            #expect(ErrorBody(serverErrorCode: code, reason: "r").recordStoreError == nil)
        }
        #expect(Set(ServerErrorCode.allCases.map(\.rawValue)).count == ServerErrorCode.allCases.count)
    }

    @Test("queries and subscriptions of every kind round-trip")
    func queriesAndSubscriptions() throws {
        var near = QueryPredicate.distanceToLocation("where", fromLocation: Location(latitude: 1, longitude: 2), lessThan: 500)
        near.distance = 500
        let query = RecordQuery(
            recordType: "Note",
            predicates: [
                QueryPredicate("title", .beginsWith, .string("Buy")), QueryPredicate("n", .in, .list([.int64(1), .int64(2)])), near,
                .truePredicate, QueryPredicate("folder", .equals, .reference(Reference(recordID: RecordID(recordName: "f", zoneID: Self.zone)))),
            ],
            sortDescriptors: [QuerySortDescriptor(key: "modified", ascending: false), QuerySortDescriptor(key: "where", relativeLocation: Location(latitude: 3, longitude: 4))])
        let subscriptions = [
            Subscription(id: "a", kind: .database), Subscription(id: "b", kind: .zone(Self.zone)),
            Subscription(id: "c", kind: .query(query, zoneID: Self.zone, firesOn: [.recordCreation, .recordDeletion])),
            Subscription(id: "d", kind: .query(query, zoneID: nil, firesOn: .all)),
        ]
        let body = SubscriptionsListResponse(subscriptions: subscriptions)
        let read = try WireJSON.decode(SubscriptionsListResponse.self, from: WireJSON.encode(body))
        #expect(read.subscriptions == subscriptions)
    }
}

/// A record as an answer holds it, to encode one through ``WireJSON``.
private struct StoredBox: WireEncodable {
    let record: Record
    init(_ record: Record) { self.record = record }
    func write(to writer: inout JSONWriter) { record.write(to: &writer, as: .stored) }
}
