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

    @Test("a record near the limit is still checked exactly")
    func nearTheLimit() async throws {
        let database = try await Database.temporary()
        var record = Record(recordType: "Blob", recordID: RecordID(recordName: "b"))
        record["data"] = .bytes([UInt8](repeating: 1, count: RecordLimits.maximumEncodedRecordSize - 40))
        await #expect(throws: RecordStoreError.self) { _ = try await database.save(record) }
        try database.removeTemporaryDirectory()
    }
}
