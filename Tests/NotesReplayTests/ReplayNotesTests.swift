import Foundation
import LogInspection
import Notes
import NotesReplay
import RecordStore
import Testing

@Suite struct ReplayNotesTests {
    /// What the app listed after one step: folders by name, each with its notes oldest first.
    struct Shown: Equatable {
        var folders: [Folder]
        var notes: [[Note]]

        /// What `manager` lists now.
        static func of(_ manager: RecordNotesManager) async throws -> Shown {
            let folders = try await manager.fetchFolders()
            var notes: [[Note]] = []
            for folder in folders { notes.append(try await manager.fetchNotes(in: folder, newestFirst: false)) }
            return Shown(folders: folders, notes: notes)
        }
    }

    /// Runs a notes session, recording after each step the Notes zone's end offset, the time of
    /// its last event and what the app showed.
    static func session(_ manager: RecordNotesManager, directory: String) async throws -> [(end: Int64, time: Int64, shown: Shown)] {
        var steps: [(Int64, Int64, Shown)] = []
        func record() async throws {
            let shown = try await Shown.of(manager)
            let store = try ReplayStore(directory: directory)
            defer { store.close() }
            let zone = try store.partition("Notes")
            let last = try zone.records(from: zone.endOffset - 1).last?.timestamp ?? 0
            steps.append((zone.endOffset, last, shown))
            try await Task.sleep(for: .milliseconds(3))
        }
        let inbox = try await manager.createDefaultFolder()
        try await record()
        var first = manager.newNote(in: inbox)
        first.content = "Buy milk"
        first = try await manager.save(first)
        try await record()
        first.content = "Buy oat milk\nand bread"
        first = try await manager.save(first)
        try await record()
        let work = try await manager.save(manager.newFolder(name: "Work"))
        var call = manager.newNote(in: work)
        call.content = "Call Anna"
        call = try await manager.save(call)
        try await record()
        try await manager.delete(first)
        try await record()
        try await manager.delete(work)
        try await record()
        return steps
    }

    /// Runs the session on a fresh store, then `body` with the store opened for replay and the
    /// steps; removes the store after, whatever happens.
    static func withSession(_ body: (ReplayStore, [(end: Int64, time: Int64, shown: Shown)]) async throws -> Void) async throws {
        let database = try await Database.temporary(durability: .fsync)  // read beside it: durable commits
        defer { try? database.removeTemporaryDirectory() }
        let directory = try #require(database.directory)
        let steps = try await session(try await RecordNotesManager(database: database), directory: directory)
        let store = try ReplayStore(directory: directory)
        defer { store.close() }
        try await body(store, steps)
    }

    @Test("notes at each point equal what the app showed then, by offset and by time")
    func viewsMatchTheApp() async throws {
        try await Self.withSession { store, steps in
            for (index, step) in steps.enumerated() {
                for point in [StorePoint.zoneOffset(zone: "Notes", offset: step.end), .time(step.time)] {
                    let replayed = try store.notes(at: point)
                    let listing = replayed.listing
                    #expect(listing.allSatisfy { $0.folder != nil })
                    #expect(Shown(folders: listing.compactMap(\.folder), notes: listing.map(\.notes)) == step.shown, "step \(index), \(point)")
                }
            }
            let empty = try store.notes(at: .zoneOffset(zone: "Notes", offset: 0))
            #expect(empty.listing.isEmpty)
            #expect(empty.text == "no folders")
            let json = try store.notes(at: .zoneOffset(zone: "Notes", offset: steps[3].end)).json
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            #expect(parsed.map { $0["name"] as? String } == ["My Notes", "Work"])
            #expect(((parsed.last?["notes"] as? [[String: Any]])?.first?["title"]) as? String == "Call Anna")
            #expect(throws: ReplayError.notNotesZone("Items")) { try store.notes(at: .zoneOffset(zone: "Items", offset: 0)) }
        }
    }

    @Test("an exported notes store opens in the app showing the notes of that point")
    func exportOpensInTheApp() async throws {
        try await Self.withSession { store, steps in
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("replay-notes-export-\(UUID().uuidString)").path
            _ = try await store.export(at: .zoneOffset(zone: "Notes", offset: steps[3].end), to: out)
            let copy = try await Database(directory: out, durability: .noSyncUnsafe)
            let app = try await RecordNotesManager(database: copy)
            #expect(try await Shown.of(app) == steps[3].shown)
            try copy.removeTemporaryDirectory()
        }
    }
}
