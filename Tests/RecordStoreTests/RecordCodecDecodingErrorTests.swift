import Foundation
import RecordStore
import Testing
import TestSupport

@Suite struct RecordCodecDecodingErrorTests {
    let id = RecordID(recordName: "r1", zoneID: Sample.zone)

    /// Version, record type "T", no system fields, then `fieldCount` and the field bytes.
    private func value(fieldCount: UInt8 = 1, _ fields: [UInt8]) -> [UInt8] {
        [0x01, 0x01] + ascii("T") + [0x00, fieldCount] + fields
    }

    /// One field named "k" with the given tag and payload.
    private func field(_ tagAndPayload: [UInt8]) -> [UInt8] {
        value([0x01] + ascii("k") + tagAndPayload)
    }

    /// The decoding error, checked to be the one reading the bytes in place gives too.
    private func reason(_ bytes: [UInt8], recordID: RecordID? = nil) -> RecordDecodingError? {
        StoredRecordAgreement.error(bytes, recordID: recordID ?? id)
    }

    @Test("the hand-built encoding used below is itself valid")
    func baselineIsValid() throws {
        let record = try RecordCodec.decode(field([0x04, 0x01]), recordID: id)
        #expect(record["k"] == .bool(true))
        #expect(record.recordType == "T")
    }

    @Test("empty input and a lone version byte are truncated")
    func truncated() {
        #expect(reason([]) == RecordDecodingError(.truncated, at: 0))
        #expect(reason([0x01]) == RecordDecodingError(.truncated, at: 1))
        #expect(reason(field([0x03, 0, 0, 0])) == RecordDecodingError(.truncated, at: 8))
    }

    @Test("an unknown version is rejected", arguments: [UInt8(0), 2, 0xFF])
    func unsupportedVersion(version: UInt8) {
        #expect(reason([version] + Array(field([0x04, 0x01]).dropFirst()))
            == RecordDecodingError(.unsupportedVersion(version), at: 0))
    }

    @Test("an unknown value tag is rejected, in a field and as a list's element tag", arguments: [UInt8(0), 0x0A, 0xFF])
    func unknownTag(tag: UInt8) {
        #expect(reason(field([tag, 0x00])) == RecordDecodingError(.unknownTag(tag), at: 7))
        #expect(reason(field([0x09, 0x01, tag, 0x00])) == RecordDecodingError(.unknownTag(tag), at: 9))
    }

    @Test("strings that are not UTF-8 are rejected, in fields and in the change tag")
    func invalidUTF8() {
        #expect(reason(field([0x01, 0x02, 0xC3, 0x28]))?.reason == .invalidUTF8)
        #expect(reason(field([0x01, 0x01, 0xFF]))?.reason == .invalidUTF8)
        // A cut 4-byte sequence whose repair (one U+FFFD, 3 bytes) has the same length as the input.
        #expect(reason(field([0x01, 0x04, 0xF0, 0x9F, 0x98, 0x41]))?.reason == .invalidUTF8)
        // An overlong NUL and a UTF-16 surrogate.
        #expect(reason(field([0x01, 0x02, 0xC0, 0x80]))?.reason == .invalidUTF8)
        #expect(reason(field([0x01, 0x03, 0xED, 0xA0, 0x80]))?.reason == .invalidUTF8)
        #expect(reason(field([0x01, 0x04, 0xF0, 0x9F, 0x98, 0x80])) == nil, "a whole 4-byte sequence is fine")
        let badTag: [UInt8] = [0x01, 0x01] + ascii("T") + [0x04, 0x01, 0xFF, 0x00]
        #expect(reason(badTag) == RecordDecodingError(.invalidUTF8, at: 4))
    }

    @Test("record types, keys and reference names that break the naming rules are rejected")
    func invalidIdentifier() {
        #expect(reason([0x01, 0x02] + ascii("_T") + [0x00, 0x00]) == RecordDecodingError(.invalidIdentifier, at: 1))
        #expect(reason([0x01, 0x00, 0x00, 0x00]) == RecordDecodingError(.invalidIdentifier, at: 1))
        #expect(reason(value([0x02] + ascii("a-") + [0x04, 0x00])) == RecordDecodingError(.invalidIdentifier, at: 5))
        #expect(reason(value([0x00, 0x04, 0x00])) == RecordDecodingError(.invalidIdentifier, at: 5))
        #expect(reason(field([0x07, 0x00, 0x02] + ascii("_x"))) == RecordDecodingError(.invalidIdentifier, at: 9))
        #expect(reason(field([0x07, 0x00, 0x00])) == RecordDecodingError(.invalidIdentifier, at: 9))
        #expect(reason(field([0x07, 0x00, 0x01, 0xC3])) == RecordDecodingError(.invalidIdentifier, at: 9))
    }

    @Test("lengths and counts larger than the bytes left are rejected before allocating")
    func invalidLength() {
        #expect(reason(field([0x01, 0x05] + ascii("abc"))) == RecordDecodingError(.invalidLength, at: 8))
        #expect(reason(field([0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])) == RecordDecodingError(.invalidLength, at: 8))
        #expect(reason(field([0x09, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])) == RecordDecodingError(.invalidLength, at: 8))
        #expect(reason(value(fieldCount: 0x7F, [])) == RecordDecodingError(.invalidLength, at: 4))
    }

    @Test("over-long varints, overflowing varints and reserved flag bits are rejected")
    func nonCanonical() {
        // 0 written in two bytes.
        #expect(reason(field([0x02, 0x80, 0x00])) == RecordDecodingError(.nonCanonical, at: 8))
        // Eleven bytes, or ten whose last carries more than the 64th bit.
        #expect(reason(field([0x02] + Array(repeating: 0xFF, count: 10) + [0x01])) == RecordDecodingError(.nonCanonical, at: 8))
        #expect(reason(field([0x02] + Array(repeating: 0xFF, count: 9) + [0x02])) == RecordDecodingError(.nonCanonical, at: 8))
        // Flag bits 5–7 name no system field.
        #expect(reason([0x01, 0x01] + ascii("T") + [0x20, 0x00]) == RecordDecodingError(.nonCanonical, at: 3))
        #expect(reason([0x01, 0x01] + ascii("T") + [0x80, 0x00]) == RecordDecodingError(.nonCanonical, at: 3))
        // Over-long with more bytes after it (a varint read from one 8-byte load): 0 in three
        // bytes, and 1 in eight.
        let after = [0x01] + ascii("b") + [0x01, 0x0A] + ascii("0123456789")
        #expect(reason(value(fieldCount: 2, [0x01] + ascii("a") + [0x02, 0x80, 0x80, 0x00] + after)) == RecordDecodingError(.nonCanonical, at: 8))
        #expect(reason(value(fieldCount: 2, [0x01] + ascii("a") + [0x02, 0x81] + Array(repeating: 0x80, count: 6) + [0x00] + after))
            == RecordDecodingError(.nonCanonical, at: 8))
        #expect(reason(value(fieldCount: 2, [0x01] + ascii("a") + [0x02, 0x81] + Array(repeating: 0x80, count: 6) + [0x01] + after)) == nil)
        // The largest varint (ten bytes, last 0x01) is fine: it is Int64.min zigzagged.
        #expect(reason(field([0x02] + Array(repeating: 0xFF, count: 9) + [0x01])) == nil)
    }

    @Test("unsorted and duplicate keys are rejected")
    func keysOutOfOrder() {
        let b: [UInt8] = [0x01] + ascii("b") + [0x04, 0x00]
        let a: [UInt8] = [0x01] + ascii("a") + [0x04, 0x00]
        let ab: [UInt8] = [0x02] + ascii("ab") + [0x04, 0x00]
        #expect(reason(value(fieldCount: 2, b + a)) == RecordDecodingError(.keysOutOfOrder, at: 9))
        #expect(reason(value(fieldCount: 2, a + a)) == RecordDecodingError(.keysOutOfOrder, at: 9))
        #expect(reason(value(fieldCount: 2, ab + a)) == RecordDecodingError(.keysOutOfOrder, at: 10))
        #expect(reason(value(fieldCount: 2, a + ab)) == nil)
    }

    @Test("Booleans, reference actions, dates and locations out of range are rejected")
    func valueOutOfRange() {
        #expect(reason(field([0x04, 0x02])) == RecordDecodingError(.valueOutOfRange, at: 8))
        #expect(reason(field([0x07, 0x02, 0x01] + ascii("x"))) == RecordDecodingError(.valueOutOfRange, at: 8))
        // Int64.min milliseconds (ten 0xFF-ish bytes zigzagged) is far before Date.distantPast.
        #expect(reason(field([0x05] + Array(repeating: 0xFF, count: 9) + [0x01]))?.reason == .valueOutOfRange)
        let latitude91 = withUnsafeBytes(of: (91.0).bitPattern.bigEndian) { Array($0) }
        let longitude0 = withUnsafeBytes(of: (0.0).bitPattern.bigEndian) { Array($0) }
        #expect(reason(field([0x08] + latitude91 + longitude0)) == RecordDecodingError(.valueOutOfRange, at: 8))
        let creationTooLate: [UInt8] = [0x01, 0x01] + ascii("T") + [0x01] + Array(repeating: 0xFE, count: 9) + [0x01, 0x00]
        #expect(reason(creationTooLate) == RecordDecodingError(.valueOutOfRange, at: 4))
    }

    @Test("lists nested deeper than allowed are rejected")
    func listTooDeep() {
        let depth = RecordLimits.maximumListDepth
        // Each level: count 1, element tag list; then the innermost list is empty.
        let allowed = field([0x09] + Array(repeating: [0x01, 0x09], count: depth - 1).flatMap { $0 } + [0x00])
        #expect(reason(allowed) == nil)
        let tooDeep = field([0x09] + Array(repeating: [0x01, 0x09], count: depth).flatMap { $0 } + [0x00])
        #expect(reason(tooDeep)?.reason == .listTooDeep)
    }

    @Test("bytes after the end of the value are rejected")
    func trailingBytes() {
        #expect(reason(field([0x04, 0x01]) + [0x00, 0x00]) == RecordDecodingError(.trailingBytes(2), at: 9))
    }

    @Test("input larger than 1 MB is rejected without being read")
    func tooLarge() {
        let bytes = [UInt8](repeating: 0x01, count: RecordLimits.maximumEncodedRecordSize + 1)
        #expect(reason(bytes) == RecordDecodingError(.tooLarge(RecordLimits.maximumEncodedRecordSize + 1), at: 0))
    }

    @Test("an invalid record ID from the caller is rejected")
    func invalidRecordID() {
        #expect(reason(field([0x04, 0x01]), recordID: RecordID(recordName: "")) == RecordDecodingError(.invalidRecordID, at: 0))
        #expect(reason(field([0x04, 0x01]), recordID: RecordID(recordName: "a", zoneID: ZoneID(zoneName: "_z")))
            == RecordDecodingError(.invalidRecordID, at: 0))
    }

    @Test("every truncation of an encoded record throws")
    func everyTruncation() throws {
        let bytes = try RecordCodec.encode(Sample.everyKind())
        for length in 0..<bytes.count {
            #expect(reason(Array(bytes[0..<length])) != nil, "length \(length)")
        }
    }

    @Test("random byte changes give an error or a valid record that re-encodes to the same bytes")
    func randomCorruption() throws {
        var generator = SeededGenerator(seed: 2024)
        let original = try RecordCodec.encode(Sample.everyKind())
        var decodedCount = 0
        for _ in 0..<5_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            guard reason(bytes) == nil, let record = try? RecordCodec.decode(bytes, recordID: id) else { continue }
            decodedCount += 1
            try record.validate()
            #expect(try RecordCodec.encode(record) == bytes)
        }
        // Changes inside strings, numbers and doubles still decode; the property was exercised.
        #expect(decodedCount > 100)
    }

    @Test("random bytes never crash the decoder")
    func randomBytes() {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty { bytes[0] = RecordCodec.version }
            if reason(bytes) == nil, let record = try? RecordCodec.decode(bytes, recordID: id) {
                #expect(throws: Never.self) { try record.validate() }
            }
        }
    }

    @Test("decoding errors say where and what to do")
    func description() {
        let text = RecordDecodingError(.truncated, at: 12).description
        #expect(text.contains("byte 12"))
        #expect(text.contains("truncated"))
        #expect(text.contains("log-inspect"))
    }
}
