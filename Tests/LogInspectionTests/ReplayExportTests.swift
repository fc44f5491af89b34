import Foundation
import LogInspection
import RecordLog
import RecordStore
import Testing

@Suite struct ReplayExportTests {
    @Test("an export to an offset opens as a database holding the state at that point, at the same offsets")
    func exportToOffset() async throws {
        try await ItemsStore.with { items, store in
            let out = temporaryPath("export")
            let summary = try await store.export(at: .zoneOffset(zone: "Items", offset: 3), to: out)
            #expect(summary.cuts.map(\.zone) == ["_database", "Items", "_defaultZone"])
            #expect(summary.cuts[1].end == 3)

            let exported = try ReplayStore(directory: out)
            for zone in ["_database", "Items", "_defaultZone"] {
                let end = summary.cuts.first { $0.zone == zone }?.end ?? 0
                let copied = try exported.log.partition(named: zone).records(from: 0)
                let original = try store.log.partition(named: zone).records(from: 0, to: end)
                #expect(copied == original, "zone \(zone): same offsets, timestamps, keys, values and headers")
            }
            let expected = try store.state(zone: "Items", at: .offset(3))
            #expect(try exported.state(zone: "Items", at: .offset(3)).records == expected.records)
            exported.close()

            let database = try await Database(directory: out, durability: .noSyncUnsafe)
            for live in expected.records {
                #expect(try await database.record(for: live.record.recordID) == live.record)
            }
            await #expect(throws: RecordStoreError.self) {
                _ = try await database.record(for: RecordID(recordName: "c", zoneID: ItemsStore.zone))
            }
            try database.removeTemporaryDirectory()
        }
    }

    @Test("an export at a time cuts every zone and the system partition at that time")
    func exportAtTime() async throws {
        try await ItemsStore.with { items, store in
            let out = temporaryPath("export-time")
            let time = items.timestamps[1]
            let summary = try await store.export(at: .time(time), to: out)
            #expect(summary.cuts.first { $0.zone == "Items" }?.end == 2)
            let database = try await Database(directory: out, durability: .noSyncUnsafe)
            let b = try await database.record(for: RecordID(recordName: "b", zoneID: ItemsStore.zone))
            #expect(b["number"] == .int64(-42))
            #expect(try await database.record(for: RecordID(recordName: "a", zoneID: ItemsStore.zone))["title"] == .string("one"))
            try database.removeTemporaryDirectory()
        }
    }

    @Test("export refuses an output that exists and is not empty, and a time before the store")
    func refusals() async throws {
        try await ItemsStore.with { items, store in
            let directory = try #require(items.database.directory)
            await #expect(throws: ReplayError.outputExists(directory)) {
                try await store.export(at: .time(Int64.max), to: directory)
            }
            let empty = temporaryPath("empty")
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            _ = try await store.export(at: .time(Int64.max), to: empty)
            await #expect(throws: ReplayError.self) { try await store.export(at: .time(0), to: temporaryPath("early")) }
            await #expect(throws: ReplayError.offsetBeyondEnd(zone: "Items", offset: 7, end: 6)) {
                try await store.export(at: .zoneOffset(zone: "Items", offset: 7), to: temporaryPath("beyond"))
            }
            try FileManager.default.removeItem(atPath: empty)
        }
    }
}
