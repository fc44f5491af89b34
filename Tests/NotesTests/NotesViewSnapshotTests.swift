import Foundation
import Notes
import RecordStore
import Testing
import TuningSupport
import TestSupport

/// The Notes view's mapped snapshot: a reopened store reads the notes in place from it, keeps
/// changing them, writes them back, and falls back to replaying the log when the file is damaged.
@Suite(.everyTuning) struct NotesViewSnapshotTests {
    /// Every folder's listing, by folder id (also for `NotesSnapshotLayoutTests`).
    static func listings(_ manager: RecordNotesManager) async throws -> [String: [Note]] {
        var listings: [String: [Note]] = [:]
        for folder in try await manager.fetchFolders() {
            listings[folder.id] = try await manager.fetchNotes(in: folder)
        }
        return listings
    }

    /// Opens the store, checks that its notes view comes from the snapshot, equals a replay and
    /// lists `listings`, and removes the store.
    private static func expectReopensFromSnapshot(_ directory: String, listings: [String: [Note]]) async throws {
        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let manager = try await RecordNotesManager(database: reopened)
        #expect(manager.notes.fromSnapshot)
        #expect(await manager.notes.current == (try reopened.rebuild(NotesView.self)))
        #expect(try await Self.listings(manager) == listings)
        try reopened.removeTemporaryDirectory()
    }

    private static func snapshotPath(_ directory: String) -> String {
        directory + "/snapshots/view-" + NotesView.name + ".mapped"
    }

    /// A store with a few folders and some 150 notes, closed; its listings.
    private static func closedStore(seed: UInt64) async throws -> (directory: String, listings: [String: [Note]]) {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        _ = try await manager.createDefaultFolder()
        for index in 0..<4 { _ = try await manager.save(manager.newFolder(name: "Folder \(index)")) }
        var random = SeededGenerator(seed: seed)
        try await randomNotesSteps(300, manager, database, &random)
        let listings = try await listings(manager)
        try database.close()
        return (try #require(database.directory), listings)
    }

    @Test("a reopened store reads its notes from the mapped snapshot, equal to a replay", arguments: [21, 22] as [UInt64])
    func reopenFromSnapshot(seed: UInt64) async throws {
        let (directory, listings) = try await Self.closedStore(seed: seed)
        #expect(FileManager.default.fileExists(atPath: Self.snapshotPath(directory)))
        try await Self.expectReopensFromSnapshot(directory, listings: listings)
    }

    @Test("changes after a mapped open are kept, and the next snapshot holds them", arguments: [31, 32] as [UInt64])
    func changeAfterMappedOpen(seed: UInt64) async throws {
        let (directory, _) = try await Self.closedStore(seed: seed)
        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let manager = try await RecordNotesManager(database: reopened)
        #expect(manager.notes.fromSnapshot)
        var random = SeededGenerator(seed: seed &+ 100)
        try await randomNotesSteps(200, manager, reopened, &random)
        let listings = try await Self.listings(manager)
        try reopened.close()

        try await Self.expectReopensFromSnapshot(directory, listings: listings)
    }

    @Test("a reader beside a live writer that committed since the checkpoint starts its Notes views from their snapshots")
    func readerBesideWriterStartsFromSnapshot() async throws {
        let (directory, _) = try await Self.closedStore(seed: 41)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try await Database(directory: directory)
        let writing = try await RecordNotesManager(database: writer)
        var random = SeededGenerator(seed: 42)
        try await randomNotesSteps(20, writing, writer, &random)
        let reader = try await Database(directory: directory, readOnly: true, refreshInterval: nil)
        let manager = try await RecordNotesManager(database: reader)
        #expect(manager.notes.fromSnapshot)
        #expect(manager.folders.fromSnapshot)
        #expect(try await Self.listings(manager) == (try await Self.listings(writing)))
        try reader.close()
        try writer.close()
    }

    @Test("a snapshot behind the log is caught up by replaying only what follows it")
    func snapshotBehindTheLog() async throws {
        let (directory, _) = try await Self.closedStore(seed: 41)
        let saved = try Data(contentsOf: URL(fileURLWithPath: Self.snapshotPath(directory)))
        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let manager = try await RecordNotesManager(database: reopened)
        var random = SeededGenerator(seed: 42)
        try await randomNotesSteps(50, manager, reopened, &random)
        let listings = try await Self.listings(manager)
        try reopened.close()
        // Put the older snapshot back, as a crash between the log's writes and the next checkpoint would leave it.
        try saved.write(to: URL(fileURLWithPath: Self.snapshotPath(directory)))

        try await Self.expectReopensFromSnapshot(directory, listings: listings)
    }

    /// Damage done to a snapshot file's bytes.
    enum Damage: String, CaseIterable, CustomStringConvertible {
        case flipInTexts, flipInCells, flipInFooter, truncated, empty, otherStore
        var description: String { rawValue }
    }

    @Test("a damaged or foreign snapshot is ignored (the view is replayed) until the next checkpoint replaces it", arguments: Damage.allCases)
    func damagedSnapshot(damage: Damage) async throws {
        let (directory, listings) = try await Self.closedStore(seed: 51)
        let path = Self.snapshotPath(directory)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case .flipInTexts: bytes[bytes.count * 3 / 4] ^= 0x20
        case .flipInCells: bytes[200] ^= 0x01
        case .flipInFooter: bytes[bytes.count - 40] ^= 0x01
        case .truncated: bytes.removeLast(bytes.count / 3)
        case .empty: bytes = []
        case .otherStore:
            let (other, _) = try await Self.closedStore(seed: 52)
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.snapshotPath(other))))
            try FileManager.default.removeItem(atPath: other)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let manager = try await RecordNotesManager(database: reopened)
        #expect(!manager.notes.fromSnapshot)
        #expect(await manager.notes.current == (try reopened.rebuild(NotesView.self)))
        #expect(try await Self.listings(manager) == listings)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "reading never changes the file")
        try reopened.close()

        // The close wrote a good snapshot.
        try await Self.expectReopensFromSnapshot(directory, listings: listings)
    }

    @Test("a snapshot whose texts span several CRC blocks is read back whole, and a flip in a later block is caught")
    func multiBlockTexts() async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        var random = SeededGenerator(seed: 61)
        for index in 0..<40 {
            var note = manager.newNote(in: inbox)
            // Random letters, so that compression leaves them some 66 KB each.
            note.content = "\(index) " + String((0..<100_000).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) })
            _ = try await manager.save(note)
        }
        let listings = try await Self.listings(manager)
        try database.close()
        let path = Self.snapshotPath(try #require(database.directory))
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(good.count > 2 << 20, "the texts take more than two 1 MiB blocks")

        var damaged = [UInt8](good)
        damaged[(2 << 20) + 100] ^= 0x04
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let reopened = try await Database(directory: try #require(database.directory), durability: .noSyncUnsafe)
        let replayed = try await RecordNotesManager(database: reopened)
        #expect(!replayed.notes.fromSnapshot)
        #expect(try await Self.listings(replayed) == listings)
        try reopened.close()
        // The close replaced the damaged file with a good one.
        try await Self.expectReopensFromSnapshot(try #require(database.directory), listings: listings)
    }

    @Test("checkpoints written while notes are being saved leave the live view and the reopened store right")
    func checkpointWhileSaving() async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        let work = try await manager.save(manager.newFolder(name: "Work"))
        try database.checkpoint()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<150 {
                    var note = manager.newNote(in: index % 3 == 0 ? work : inbox)
                    note.content = "note \(index)"
                    _ = try await manager.save(note)
                    if index % 10 == 0, var first = try await manager.fetchNotes(in: inbox).first {
                        first.content += " (edited)"
                        _ = try await manager.save(first)
                    }
                }
            }
            group.addTask {
                for _ in 0..<10 {
                    try database.checkpoint()
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        #expect(await manager.notes.current == (try database.rebuild(NotesView.self)), "the live view is untouched by the snapshots taken from it")
        let listings = try await Self.listings(manager)
        try database.close()
        try await Self.expectReopensFromSnapshot(try #require(database.directory), listings: listings)
    }
}
