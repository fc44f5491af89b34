import Foundation
@testable import Notes
@testable import RecordStore
import StorageKit
import Testing
import TestSupport

/// The Notes view's named sections and meta write the bytes FORMAT.md §12.1 numbers: a committed
/// snapshot reads and writes back byte for byte, and a meta of another version is refused.
@Suite struct NotesSnapshotLayoutTests {
    @Test("the committed fixture's notes snapshot loads, and written again is the same bytes")
    func fixtureRoundTripsByteForByte() throws {
        let path = Fixtures.path("notes-store/snapshots/view-notes-notes.mapped")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let snapshot = try #require(MappedViewSnapshot.open(path: path) { Issue.record("rejected: \($0)") })
        let view = try #require(NotesView(snapshot: snapshot))
        let zones = try #require(MappedSnapshotFooter.zoneNames(original)).map { name in
            let position = try #require(snapshot.zones[name])
            return (name: name, incarnation: position.incarnation, offset: position.offset)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-layout-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/snapshots", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Database.writeMappedSnapshot(view, directory: directory, storeID: snapshot.storeID, zones: zones)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/snapshots/view-notes-notes.mapped")))
        #expect(written == original)
    }
}
