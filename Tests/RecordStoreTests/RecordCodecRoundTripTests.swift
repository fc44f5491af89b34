import Foundation
import RecordStore
import Testing
import TestSupport

@Suite struct RecordCodecRoundTripTests {
    let id = RecordID(recordName: "r1", zoneID: Sample.zone)

    private func roundTrip(_ record: Record) throws -> Record {
        try RecordCodec.decode(try RecordCodec.encode(record), recordID: record.recordID)
    }

    @Test("each field type decodes to the value that was encoded", arguments: [
        FieldValue.string("héllo\n\u{0}"), .string(""), .int64(0), .int64(-1), .int64(.min), .int64(.max),
        .double(3.25), .double(-0.0), .double(.infinity), .double(.nan), .double(.leastNonzeroMagnitude),
        .bool(false), .bool(true), .date(Sample.date), .date(Date(timeIntervalSince1970: -1.999)),
        .bytes([]), .bytes(Array(0...255)),
        .reference(Reference(recordID: RecordID(recordName: "other", zoneID: Sample.zone))),
        .location(Location(latitude: -90, longitude: 180)),
        .list([.double(1), .double(2)]), .list([.list([.list([.list([.string("deep")])])])]),
    ])
    func fieldRoundTrip(value: FieldValue) throws {
        var record = Record(recordType: "Thing", recordID: id)
        record["value"] = value
        let decoded = try roundTrip(record)
        #expect(decoded["value"] == value)
        #expect(decoded == record)
    }

    @Test("integers of every bit length decode the same at the end of a record and with bytes after them")
    func varintsOfEveryLength() throws {
        // Varints with eight bytes after their start are read from one load, the others byte by
        // byte: both must give every value back, from one byte to ten.
        for bits in 0...64 {
            for value in [Int64(bitPattern: bits == 64 ? .max : (1 << UInt64(bits)) - 1), bits == 64 ? .min : -(Int64(1) << Int64(min(bits, 62)))] {
                var last = Record(recordType: "Thing", recordID: id)
                last["a"] = .int64(value)
                #expect(try roundTrip(last)["a"] == .int64(value))
                var followed = last
                followed["b"] = .string("sixteen bytes...")
                let decoded = try roundTrip(followed)
                #expect(decoded["a"] == .int64(value))
                #expect(decoded == followed)
            }
        }
    }

    @Test("a record with every kind and all system fields round-trips and re-encodes to the same bytes")
    func fullRecord() throws {
        let record = Sample.everyKind()
        let bytes = try RecordCodec.encode(record)
        let decoded = try RecordCodec.decode(bytes, recordID: record.recordID)
        #expect(decoded == record)
        #expect(decoded.recordType == "Note")
        #expect(decoded.creationDate == Sample.date)
        #expect(decoded.modificationDate == Sample.date.addingTimeInterval(60))
        #expect(decoded.recordChangeTag == "tag-7")
        #expect(decoded.allKeys() == record.allKeys())
        #expect(try RecordCodec.encode(decoded) == bytes)
    }

    @Test("decoding takes the record ID from outside and puts references in that zone")
    func recordIDFromOutside() throws {
        let record = Sample.everyKind()
        let otherID = RecordID(recordName: "copy", zoneID: ZoneID(zoneName: "Elsewhere"))
        let decoded = try RecordCodec.decode(try RecordCodec.encode(record), recordID: otherID)
        #expect(decoded.recordID == otherID)
        #expect(decoded["folder"] == .reference(Reference(
            recordID: RecordID(recordName: "folder-1", zoneID: otherID.zoneID), action: .deleteSelf)))
    }

    @Test("decoding accepts an array, an array slice and a raw buffer alike")
    func decodeInputs() throws {
        let record = Sample.everyKind()
        let bytes = try RecordCodec.encode(record)
        let padded = [0xEE] + bytes + [0xEE]
        #expect(try RecordCodec.decode(padded[1..<(padded.count - 1)], recordID: record.recordID) == record)
        let fromBuffer = try bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try RecordCodec.decode(buffer, recordID: record.recordID) }
        }.get()
        #expect(fromBuffer == record)
    }

    @Test("a record with no fields and no system fields round-trips")
    func emptyRecord() throws {
        let record = Record(recordType: "Empty", recordID: id)
        #expect(try roundTrip(record) == record)
        #expect(try RecordCodec.encode(record) == [0x01, 0x05] + ascii("Empty") + [0x00, 0x00])
    }

    @Test("a decoded record has no changed keys")
    func decodedHasNoChangedKeys() throws {
        var record = Record(recordType: "Note", recordID: id)
        record["title"] = .string("x")
        #expect(record.changedKeys() == ["title"])
        #expect(try roundTrip(record).changedKeys() == [])
    }

    @Test("the same fields set in any order encode to the same bytes")
    func determinism() throws {
        let keys = ["zeta", "alpha", "Mid", "alpha2", "b"]
        var generator = SeededGenerator(seed: 7)
        var encodings = Set<[UInt8]>()
        for _ in 0..<20 {
            var record = Record(recordType: "Note", recordID: id)
            for key in keys.shuffled(using: &generator) { record[key] = .string(key) }
            record["scratch"] = .int64(1)
            record["scratch"] = nil
            encodings.insert(try RecordCodec.encode(record))
        }
        #expect(encodings.count == 1)
    }

    @Test("encoding appends to the caller's buffer and leaves what was there")
    func appendsToBuffer() throws {
        let record = Sample.everyKind()
        var buffer: [UInt8] = [9, 9, 9]
        try RecordCodec.encode(record, into: &buffer)
        try RecordCodec.encode(record, into: &buffer)
        let single = try RecordCodec.encode(record)
        #expect(buffer == [9, 9, 9] + single + single)
    }

    private func storedDate(_ date: Date) throws -> Date? {
        var record = Record(recordType: "Note", recordID: id)
        record["at"] = .date(date)
        guard case .date(let stored)? = try roundTrip(record)["at"] else { return nil }
        return stored
    }

    @Test("a date made from whole milliseconds comes back as the identical Date")
    func wholeMilliseconds() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            // Any millisecond between Date.distantPast and Date.distantFuture.
            let milliseconds = Int64.random(in: -62_135_769_600_000...64_092_211_200_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(try storedDate(date) == date, "millisecond \(milliseconds)")
        }
        #expect(try storedDate(.distantPast) == .distantPast)
        #expect(try storedDate(.distantFuture) == .distantFuture)
    }

    @Test("other dates are stored as the nearest millisecond, and compare equal to it")
    func nearestMillisecond() throws {
        #expect(try storedDate(Date(timeIntervalSince1970: 10.0004)) == Date(timeIntervalSince1970: 10.000))
        #expect(try storedDate(Date(timeIntervalSince1970: 10.0006)) == Date(timeIntervalSince1970: 10.001))
        #expect(try storedDate(Date(timeIntervalSince1970: -10.0006)) == Date(timeIntervalSince1970: -10.001))
        #expect(FieldValue.date(Date(timeIntervalSince1970: 10.0004)) == .date(Date(timeIntervalSince1970: 10)))
        #expect(FieldValue.date(Date(timeIntervalSince1970: 10.0004)) != .date(Date(timeIntervalSince1970: 10.0006)))
    }

    @Test("random valid records round-trip and re-encode to the same bytes")
    func randomRecords() throws {
        var generator = SeededGenerator(seed: 42)
        for index in 0..<300 {
            let record = RandomRecord.make(index: index, zoneID: Sample.zone, using: &generator)
            let bytes = try RecordCodec.encode(record)
            let decoded = try RecordCodec.decode(bytes, recordID: record.recordID)
            #expect(decoded == record)
            #expect(try RecordCodec.encode(decoded) == bytes)
        }
    }
}
