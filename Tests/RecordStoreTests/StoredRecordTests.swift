import Foundation
import RecordStore
import Testing
import TestSupport

/// The borrowed, lazily decoded record agrees with the eager decoder: same values, same errors.
@Suite struct StoredRecordTests {
    @Test("random records read in place give the decoder's record, field by field and whole")
    func randomRecords() throws {
        var generator = SeededGenerator(seed: 7)
        for index in 0..<300 {
            let made = RandomRecord.make(index: index, zoneID: Sample.zone, using: &generator)
            let record = index.isMultiple(of: 2)
                ? made.stored(created: Date(timeIntervalSince1970: Double(index)), modified: Date(timeIntervalSince1970: 1e9), tag: "t\(index)")
                : made
            let bytes = try RecordCodec.encode(record)
            let decoded = try RecordCodec.decode(bytes, recordID: record.recordID)
            try StoredRecordAgreement.expectSameRecord(bytes, decoded)
        }
    }

    @Test("a record of every kind reads the same in place")
    func everyKind() throws {
        let record = Sample.everyKind()
        try StoredRecordAgreement.expectSameRecord(try RecordCodec.encode(record), record)
    }
}

/// Checks that ``StoredRecord`` and ``RecordCodec/decode`` agree on bytes.
enum StoredRecordAgreement {
    /// `bytes` read in place hold the same type, system fields and fields as `record`.
    static func expectSameRecord(_ bytes: [UInt8], _ record: Record) throws {
        try bytes.withUnsafeBytes { buffer in
            let stored = try StoredRecord(buffer, recordID: record.recordID)
            #expect(stored.materialized() == record)
            #expect(stored.recordType == record.recordType)
            #expect(stored.hasRecordType(record.recordType))
            #expect(!stored.hasRecordType(record.recordType + "x"))
            #expect(stored.creationDate == record.creationDate)
            #expect(stored.modificationDate == record.modificationDate)
            #expect(stored.recordChangeTag == record.recordChangeTag)
            for key in record.allKeys() {
                #expect(stored[key] == record[key], "field \(key)")
                #expect(stored[key + "_"] == nil)
                // The borrowed bytes of strings and reference names, and nil for any other kind.
                var string: [UInt8]?, name: [UInt8]?
                if case .string(let text)? = record[key] { string = Array(text.utf8) }
                if case .reference(let reference)? = record[key] { name = Array(reference.recordID.recordName.utf8) }
                #expect(stored.withStringUTF8(key) { $0.map(Array.init) } == string, "string \(key)")
                #expect(stored.withReferenceNameUTF8(key) { $0.map(Array.init) } == name, "reference \(key)")
                #expect(stored.withStringUTF8(key + "_") { $0 == nil })
            }
            #expect(stored["a"] == nil)
            #expect(stored["zzz"] == nil)
        }
    }

    /// The error of decoding `bytes` eagerly, which reading them in place must give too; nil when
    /// they decode (and then both give the same record).
    static func error(_ bytes: [UInt8], recordID: RecordID) -> RecordDecodingError? {
        let eager = Result { () throws(RecordDecodingError) in try RecordCodec.decode(bytes, recordID: recordID) }
        let inPlace = bytes.withUnsafeBytes { buffer in
            Result { () throws(RecordDecodingError) in try StoredRecord(buffer, recordID: recordID).materialized() }
        }
        switch (eager, inPlace) {
        case (.success(let record), .success(let materialized)):
            #expect(record == materialized)
            return nil
        case (.failure(let error), .failure(let inPlaceError)):
            #expect(error == inPlaceError)
            return error
        default:
            Issue.record("the decoder and the in-place reader disagree on \(bytes): \(eager) vs \(inPlace)")
            return (try? eager.get()) == nil ? RecordDecodingError(.truncated, at: -1) : nil
        }
    }
}
