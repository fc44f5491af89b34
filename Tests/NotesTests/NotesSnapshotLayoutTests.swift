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

    private static let fixture = Fixtures.path("notes-store/snapshots/view-notes-notes.mapped")

    @Test("the meta encodes to the words the file has always held, in its order, and refuses another version")
    func metaWordsAreTheFormersLayout() throws {
        let meta = NoteSlots.Meta(noteCount: 150, idSeed: 0x1234_5678_9ABC_DEF0, textBytes: 9_000)
        // The words as the writer listed them before they had names: version, N, seed, text length.
        #expect(meta.words == [2, 150, 0x1234_5678_9ABC_DEF0, 9_000])
        #expect(NoteSlots.Meta(words: meta.words) == meta)
        for version: UInt64 in [0, 1, 3] {
            #expect(NoteSlots.Meta(words: NoteSlots.Meta(version: version, noteCount: 1, idSeed: 1, textBytes: 1).words) == nil)
        }
        #expect(NoteSlots.Meta(words: [2, UInt64(Int32.max) + 1, 0, 0]) == nil, "more notes than an int32 numbers")
        #expect(NoteSlots.Meta(words: [2, 1, 0]) == nil)
        // The fixture's first section, read as plain words, is a meta of this version.
        let snapshot = try #require(MappedViewSnapshot.open(path: Self.fixture) { Issue.record("rejected: \($0)") })
        let words = try #require(snapshot.sections(NoteSlots.Section.self)?.array(.meta, of: UInt64.self))
        #expect(NoteSlots.Meta(words: Array(words))?.words == Array(words))
    }

    /// The fixture's notes snapshot copied section by section under its names into `directory`,
    /// its meta's version replaced by `version`; the copy's path.
    private static func copyOfFixture(version: UInt64, into directory: String) throws -> String {
        let snapshot = try #require(MappedViewSnapshot.open(path: fixture) { Issue.record("rejected: \($0)") })
        let sections = try #require(snapshot.sections(NoteSlots.Section.self))
        var meta = try #require(sections.meta(.meta, as: NoteSlots.Meta.self))
        meta.version = version
        let path = directory + "/snapshots/view-notes-notes.mapped"
        try DurableFile.write(to: path) { file in
            var writer = ViewSnapshotWriter(file: file)
            for section in NoteSlots.Section.allCases {
                try writer.startSection(section)
                if section == .meta { try writer.write(meta: meta) } else { try writer.write(sections.bytes(section)) }
            }
            try writer.finish(storeID: snapshot.storeID, zones: snapshot.zones.map { ($0.key, $0.value.incarnation, $0.value.offset) })
        }
        return path
    }

    @Test("a notes snapshot whose meta is of another version is not read; the same sections of this version are")
    func otherVersionIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-version-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/snapshots", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for version in [NoteSlots.Meta.currentVersion, 1, 3] {
            let path = try Self.copyOfFixture(version: version, into: directory)
            let snapshot = try #require(MappedViewSnapshot.open(path: path) { Issue.record("rejected: \($0)") })
            #expect((NotesView(snapshot: snapshot) != nil) == (version == NoteSlots.Meta.currentVersion))
        }
    }

    @Test("the committed fixture store opens from its snapshots; with a notes snapshot of another version it replays the same notes")
    func fixtureStoreOpensFromItsSnapshots() async throws {
        var results: [[String: [Note]]] = []
        for version in [NoteSlots.Meta.currentVersion, 1] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-fixture-\(UUID())").path
            try FileManager.default.copyItem(atPath: Fixtures.path("notes-store"), toPath: directory)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            if version != NoteSlots.Meta.currentVersion { _ = try Self.copyOfFixture(version: version, into: directory) }
            let database = try await Database(directory: directory, durability: .noSyncUnsafe)
            #expect(database.openReport.zonesFromSnapshot == 2)
            let manager = try await RecordNotesManager(database: database)
            #expect(manager.notes.fromSnapshot == (version == NoteSlots.Meta.currentVersion))
            results.append(try await NotesViewSnapshotTests.listings(manager))
            try database.close()
        }
        #expect(results.count == 2 && results[0] == results[1] && !results[0].isEmpty)
    }
}
