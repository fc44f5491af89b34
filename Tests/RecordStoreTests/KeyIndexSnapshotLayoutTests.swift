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
        try KeyIndexSnapshot.write(zones, storeID: read.storeID, to: directory + "/key-index.mapped")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/key-index.mapped")))
        #expect(written == original)
    }
}
