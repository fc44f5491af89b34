import Foundation
import Testing
import TestSupport
@testable import RecordStore

@Suite struct RecordSizeBoundTests {
    @Test("the planner's size bound is never below a record's real encoded size, with the longest change tag")
    func boundIsAnUpperBound() throws {
        var generator = SeededGenerator(seed: 42)
        for index in 0..<500 {
            var record = RandomRecord.make(index: index, zoneID: ZoneID(zoneName: "Notes"), using: &generator)
            record.recordChangeTag = ChangeTag.longest
            record.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
            record.modificationDate = Date(timeIntervalSince1970: 1_800_000_000)
            let encoded = try RecordCodec.encode(record)
            #expect(ZonePlanner.encodedSizeBound(record) >= encoded.count, "record \(index)")
        }
    }

    @Test("the bound covers a change tag longer than the store's own, and the encoder writes within it")
    func longForeignChangeTag() throws {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: "n"))
        record["text"] = .string("x")
        record.recordChangeTag = String(repeating: "t", count: RecordLimits.maximumNameLength)
        let encoded = try RecordCodec.encode(record)
        #expect(ZonePlanner.encodedSizeBound(record) >= encoded.count)
        #expect(try RecordCodec.decode(encoded[...], recordID: record.recordID) == record)
    }

    @Test("a record near the limit is still checked exactly", arguments: StoreKind.allCases)
    func nearTheLimit(kind: StoreKind) async throws {
        let database = try await openTemporaryDatabase(kind)
        var record = Record(recordType: "Blob", recordID: RecordID(recordName: "b"))
        record["data"] = .bytes([UInt8](repeating: 1, count: RecordLimits.maximumEncodedRecordSize - 40))
        await #expect(throws: RecordStoreError.self) { _ = try await database.save(record) }
        try database.removeTemporaryDirectory()
    }
}
