import Foundation
import Notes
import RecordStore
import StorageKit
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
        /// The id table moved into the room after the cells, every checksum made right: the
        /// sections overlap (the fuzz target's oracle failure).
        case idTableInCellsRoom
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
        case .idTableInCellsRoom:
            bytes = try Self.withIDTableInCellsRoom(bytes)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if damage == .idTableInCellsRoom {
            var reasons: [String] = []
            #expect(UntrustedBytes.openViewSnapshot(path: path) { reasons.append($0) } == nil)
            #expect(reasons == ["its section 2 starts before section 1 ends"])
        }

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let manager = try await RecordNotesManager(database: reopened)
        #expect(!manager.notes.fromSnapshot)
        #expect(await manager.notes.current == (try reopened.rebuild(NotesView.self)))
        #expect(try await Self.listings(manager) == listings)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "reading never changes the file")
        // Notes saved after the open are found, and so are the notes that were there.
        let inbox = try #require(try await manager.fetchFolders().first)
        var saved: [Note] = []
        for index in 0..<20 {
            var note = manager.newNote(in: inbox)
            note.content = "saved after the open \(index)"
            saved.append(try await manager.save(note))
        }
        for note in saved + listings.values.joined() {
            #expect(try await manager.fetchNote(id: note.id).content == note.content)
        }
        let listingsWithSaved = try await Self.listings(manager)
        try reopened.close()

        // The close wrote a good snapshot.
        try await Self.expectReopensFromSnapshot(directory, listings: listingsWithSaved)
    }

    /// A notes snapshot's bytes with its id table (section 2) copied into the room after the
    /// cells (section 1) and the footer pointing there, each section's block CRCs and the
    /// footer's CRC made for the new bytes (FORMAT.md §12, §12.1): a file whose checksums are all
    /// right and whose sections overlap. A view that read it would append its next cells over
    /// the id table.
    private static func withIDTableInCellsRoom(_ bytes: [UInt8]) throws -> [UInt8] {
        func integer(_ at: Int, _ size: Int) -> Int { bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) } }
        func append(_ value: Int, _ size: Int, to output: inout [UInt8]) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        let blockSize = 1 << 20
        let footerStart = bytes.count - 16 - integer(bytes.count - 16, 4)
        // The footer up to its sections (store ID, zones) stays as it is.
        var position = footerStart + 16
        let zones = integer(position, 4)
        position += 4
        for _ in 0..<zones { position += 2 + integer(position, 2) + 16 }
        var footer = Array(bytes[footerStart..<position])
        let sectionCount = integer(position, 4)
        position += 4
        var sections: [Range<Int>] = []
        for _ in 0..<sectionCount {
            let offset = integer(position, 8), length = integer(position + 8, 8)
            sections.append(offset..<(offset + length))
            position += 16 + 4 * ((length + blockSize - 1) / blockSize)
        }
        try #require(sections.count == 9)
        // Section 0's second word (little-endian) is the note count; the cells are 48 bytes.
        let notes = bytes[(sections[0].lowerBound + 8)..<(sections[0].lowerBound + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
        let moved = (sections[1].lowerBound + 48 * notes + 63) / 64 * 64
        try #require(moved + sections[2].count <= sections[1].upperBound, "the cells leave room for the id table")
        var body = Array(bytes[0..<footerStart])
        body[moved..<(moved + sections[2].count)] = bytes[sections[2]]
        sections[2] = moved..<(moved + sections[2].count)
        append(sections.count, 4, to: &footer)
        for section in sections {
            append(section.lowerBound, 8, to: &footer)
            append(section.count, 8, to: &footer)
            for block in stride(from: section.lowerBound, to: section.upperBound, by: blockSize) {
                append(Int(CRC32C.checksum(Array(body[block..<min(block + blockSize, section.upperBound)]))), 4, to: &footer)
            }
        }
        var trailer: [UInt8] = []
        append(footer.count, 4, to: &trailer)
        append(Int(CRC32C.checksum(footer)), 4, to: &trailer)
        return body + footer + trailer + Array("RLVIEW01".utf8)
    }

    @Test("a folder of more notes than one thread builds, its texts on several pages, lists the same oldest and newest first, live and from its snapshot")
    func largeFolderListing() async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        let other = try await manager.save(manager.newFolder(name: "Other"))
        var random = SeededGenerator(seed: 71)
        var inInbox: [Note] = []
        for index in 0..<1_100 {
            var note = manager.newNote(in: index % 10 == 0 ? other : inbox)
            note.content = "\(index) " + String((0..<(1 + random.next() % 4_000)).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) })
            let saved = try await manager.save(note)
            if saved.folderID == inbox.id { inInbox.append(saved) }
        }
        func key(_ note: Note) throws -> (Date, String) { (try #require(note.modifiedAt), note.id) }
        let expected = try inInbox.sorted { try key($0) < key($1) }
        #expect(try await manager.fetchNotes(in: inbox) == expected)
        #expect(try await manager.fetchNotes(in: inbox, newestFirst: true) == expected.reversed())
        try database.close()

        let reopened = try await Database(directory: try #require(database.directory), durability: .noSyncUnsafe)
        let again = try await RecordNotesManager(database: reopened)
        #expect(again.notes.fromSnapshot)
        #expect(try await again.fetchNotes(in: inbox, newestFirst: true) == expected.reversed())
        #expect(try await again.fetchNotes(in: inbox) == expected)
        try reopened.removeTemporaryDirectory()
    }

    /// A store holding `count` notes in its default folder, each of 100,000 random letters (some
    /// 66 KB once compressed), open.
    private static func storeOfLargeNotes(_ count: Int, seed: UInt64) async throws -> (Database, RecordNotesManager, Folder) {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        let inbox = try await manager.createDefaultFolder()
        var random = SeededGenerator(seed: seed)
        for index in 0..<count {
            var note = manager.newNote(in: inbox)
            note.content = "\(index) " + String((0..<100_000).map { _ in Character(UnicodeScalar(UInt8(97 + random.next() % 26))) })
            _ = try await manager.save(note)
        }
        return (database, manager, inbox)
    }

    @Test("a snapshot whose texts span several CRC blocks is read back whole, and a flip in a later block is caught")
    func multiBlockTexts() async throws {
        let (database, manager, _) = try await Self.storeOfLargeNotes(40, seed: 61)
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

    @Test("opening a snapshot checks every block without keeping its pages as the process's memory")
    func checkedPagesAreNotKept() async throws {
        let (database, _, inbox) = try await Self.storeOfLargeNotes(60, seed: 67)
        try database.close()
        let directory = try #require(database.directory)
        let path = URL(fileURLWithPath: Self.snapshotPath(directory)).resolvingSymlinksInPath().path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 4 << 20, "the texts take several 1 MiB blocks")

        let reopened = try await Database(directory: directory, durability: .noSyncUnsafe)
        let opened = try await RecordNotesManager(database: reopened)
        #expect(opened.notes.fromSnapshot, "every block passed its check")
        let resident = try Self.residentBytes(ofMapping: path)
        #expect(resident < size / 4, "\(resident) of the snapshot's \(size) bytes stayed resident after the check")
        #expect(try await opened.fetchNotes(in: inbox).count == 60)
        #expect(try Self.residentBytes(ofMapping: path) > 0, "the fetch read the texts where the file is mapped")
        try reopened.removeTemporaryDirectory()
    }

    /// The bytes of this process's mappings of the file at `path` that are resident, from
    /// `/proc/self/smaps`.
    private static func residentBytes(ofMapping path: String) throws -> Int {
        // Read to its end: a /proc file says it holds 0 bytes, and a reader that trusts its size
        // stops after one page.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? file.close() }
        var data = Data()
        while let chunk = try file.read(upToCount: 1 << 16), !chunk.isEmpty { data.append(chunk) }
        let smaps = String(decoding: data, as: UTF8.self)
        var inFile = false
        var kilobytes = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                inFile = fields.count >= 6 && fields[5...].joined(separator: " ") == path
            } else if inFile, fields.first == "Rss:", fields.count >= 2, let value = Int(fields[1]) {
                kilobytes += value
            }
        }
        return kilobytes << 10
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
