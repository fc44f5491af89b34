import Foundation
import RecordLog
@testable import RecordStore
import StorageKit
import Testing
import TestSupport

/// The key index checkpoint's named sections and metas write the bytes FORMAT.md §12.2 numbers:
/// a committed snapshot reads and writes back byte for byte, and a snapshot of another version is
/// ignored as before.
@Suite struct KeyIndexSnapshotLayoutTests {
    @Test("the committed fixture's key index snapshot loads, and written again is the same bytes")
    func fixtureRoundTripsByteForByte() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("notes-store/snapshots/key-index.mapped"))))
        let read = try #require(KeyIndexSnapshot.read(path: Fixtures.path("notes-store/snapshots/key-index.mapped")) { Issue.record("rejected: \($0)") })
        let order = try #require(MappedSnapshotFooter.zoneNames(original))
        #expect(Set(order) == Set(read.zones.keys) && order.count == 2)
        let zones = try order.map { name in
            let zone = try #require(read.zones[name])
            return (name: name, incarnation: zone.covered.incarnation, offset: zone.covered.offset, records: zone.records)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("key-index-layout-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The fixture is a version 5 file (written before client change tokens and deleted names).
        try KeyIndexSnapshot.write(
            zones, storeID: read.storeID, to: directory + "/key-index.mapped", version: KeyIndexSnapshot.Header.versionWithoutClientTokens)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/key-index.mapped")))
        #expect(written.count == original.count && written == original, "the bytes differ")
    }

    @Test("the header and zone meta encode to the words the file has always held, in its order")
    func metaWordsAreTheFormersLayout() throws {
        #expect(KeyIndexSnapshot.Header(version: 5, zoneCount: 2).words == [5, 2])
        let read = try #require(KeyIndexSnapshot.read(path: Fixtures.path("notes-store/snapshots/key-index.mapped")) { Issue.record("rejected: \($0)") })
        for zone in read.zones.values {
            let index = zone.records
            let meta = KeyIndexSnapshot.ZoneMeta(
                liveCount: index.count, nameSeed: index.slots.seed, liveNameBytes: index.names.liveBytes, slotCount: index.entries.count)
            // The words as the writer listed them before they had names.
            #expect(meta.words == [UInt64(index.count), index.slots.seed, UInt64(index.names.liveBytes), UInt64(index.entries.count)])
            #expect(KeyIndexSnapshot.ZoneMeta(words: meta.words) == meta)
        }
        // The fixture's first section, read as plain words, is the header the code writes.
        let snapshot = try #require(MappedViewSnapshot.open(path: Fixtures.path("notes-store/snapshots/key-index.mapped")) { Issue.record("rejected: \($0)") })
        let header = try #require(snapshot.sections(KeyIndexSnapshot.Section.self)?.array(.header, of: UInt64.self))
        #expect(Array(header) == KeyIndexSnapshot.Header(version: 5, zoneCount: read.zones.count).words)
    }

    @Test("a header of another version, or a zone meta whose counts cannot be, is refused")
    func metaRefusesWhatItDoesNotRead() {
        for version: UInt64 in [0, 4, 8] {
            #expect(KeyIndexSnapshot.Header(words: KeyIndexSnapshot.Header(version: version, zoneCount: 1).words) == nil)
        }
        #expect(KeyIndexSnapshot.Header(words: [5, 1, 0]) == nil)
        #expect(KeyIndexSnapshot.ZoneMeta(words: [3, 0, 0, 2]) == nil, "more live records than slots")
        #expect(KeyIndexSnapshot.ZoneMeta(words: [0, 0, 0, UInt64(Int32.max) + 1]) == nil, "more slots than an int32 numbers")
    }

    @Test("a key index snapshot of another version is ignored: the zones are replayed, with the same records")
    func otherVersionIsReplayed() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            try await database.saveAll((0..<20).map { queryRecord("r\($0)", ["n": .int64(Int64($0))]) })
            try database.close()
            let snapshotPath = path + "/snapshots/key-index.mapped"
            for version in [KeyIndexSnapshot.Header.currentVersion, 4] {
                let read = try #require(KeyIndexSnapshot.read(path: snapshotPath) { _ in })
                let zones = read.zones.map { (name: $0.key, incarnation: $0.value.covered.incarnation, offset: $0.value.covered.offset, records: $0.value.records) }
                try KeyIndexSnapshot.write(zones, storeID: read.storeID, to: snapshotPath, version: version)
                var reasons: [String] = []
                #expect((KeyIndexSnapshot.read(path: snapshotPath) { reasons.append($0) } == nil) == (version == 4))
                #expect(reasons == (version == 4 ? ["it is not a key index snapshot of version 5 to 7"] : []))
                let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
                #expect(reopened.openReport.zonesFromSnapshot == (version == 4 ? 0 : 1))
                let records = try await reopened.records(for: (0..<20).map { RecordID(recordName: "r\($0)") })
                #expect(records.values.allSatisfy { (try? $0.get()) != nil } && records.count == 20)
                try reopened.checkpoint()
                try reopened.close()
                if version == 4 {
                    // The next checkpoint replaces it with one of the current version.
                    #expect(KeyIndexSnapshot.read(path: snapshotPath) { Issue.record("rejected: \($0)") } != nil)
                }
            }
        }
    }
}
