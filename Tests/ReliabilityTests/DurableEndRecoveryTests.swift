import Foundation
import RecordStore
import ReliabilityHarness
import Testing

/// A writer killed between creating a partition's `durable-end` file and sizing it leaves the
/// file empty; the next writer maps it shared and publishes into it. Found by the crash harness
/// (SIGBUS on the first publish after such a crash).
@Suite struct DurableEndRecoveryTests {
    @Test func aMarkFileLeftEmptyByACrashIsSizedOnOpen() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("DurableEnd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let zone = ZoneID(zoneName: "Marks")
        var database = try await HarnessStore.open(store)
        _ = try await database.createZone(zone)
        _ = try await database.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "a", zoneID: zone))], deleting: [])
        try database.close()
        let marks = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.hasSuffix("durable-end") }
        #expect(!marks.isEmpty)
        for mark in marks { try Data().write(to: URL(fileURLWithPath: store + "/" + mark)) }

        database = try await HarnessStore.open(store)
        _ = try await database.modifyRecords(saving: [Record(recordType: "Note", recordID: RecordID(recordName: "b", zoneID: zone))], deleting: [])
        try database.close()
        database = try await HarnessStore.open(store)
        let names = try await database.records(for: [RecordID(recordName: "a", zoneID: zone), RecordID(recordName: "b", zoneID: zone)])
        #expect(names.values.allSatisfy { (try? $0.get()) != nil })
        try database.close()
        for mark in marks {
            let size = try FileManager.default.attributesOfItem(atPath: store + "/" + mark)[.size] as? Int
            #expect(size == 1024, "\(mark) is sized again")
        }
    }
}
