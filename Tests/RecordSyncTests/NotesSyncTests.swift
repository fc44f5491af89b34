import Foundation
import Notes
import RecordStore
import RecordSync
import StoreKindSupport
import Testing

@Suite("Sync: the Notes app on two devices")
struct NotesSyncTests {
    @Test(
        "notes and folders made through NotesManager on two devices converge; a folder deleted on one takes its notes on the other",
        arguments: StoreKind.allCases)
    func notesManagersConverge(remote kind: StoreKind) async throws {
        let remote = try await openTemporaryDatabase(kind)
        let phoneStore = try await Database.temporary()
        let laptopStore = try await Database.temporary()
        defer { for store in [phoneStore, laptopStore, remote] { try? store.removeTemporaryDirectory() } }
        let phone = try await RecordNotesManager(database: phoneStore)
        let laptop = try await RecordNotesManager(database: laptopStore)
        let engines = [phoneStore, laptopStore].map {
            SyncEngine(local: $0, remote: remote, configuration: .init(automaticallySync: false))
        }
        func syncAll() async throws {
            for _ in 0..<2 {
                for engine in engines {
                    try await engine.sendChanges()
                    try await engine.fetchChanges()
                }
            }
        }

        let inbox = try await phone.createDefaultFolder()
        var milk = phone.newNote(in: inbox)
        milk.content = "Buy milk"
        milk = try await phone.save(milk)
        let work = try await laptop.save(laptop.newFolder(name: "Work"))
        var call = laptop.newNote(in: work)
        call.content = "Call Anna"
        call = try await laptop.save(call)
        _ = try await laptop.createDefaultFolder()  // the same fixed record on both: merged
        try await syncAll()

        for manager in [phone, laptop] {
            #expect(try await manager.fetchFolders().map(\.name) == ["My Notes", "Work"])
            #expect(try await manager.fetchNote(id: milk.id).content == "Buy milk")
            #expect(try await manager.fetchNote(id: call.id).content == "Call Anna")
        }

        var edited = try await laptop.fetchNote(id: milk.id)
        edited.content = "Buy oat milk"
        _ = try await laptop.save(edited)
        try await phone.delete(try await phone.fetchFolders().first { $0.name == "Work" } ?? work)
        try await syncAll()
        for manager in [phone, laptop] {
            #expect(try await manager.fetchFolders().map(\.name) == ["My Notes"])
            #expect(try await manager.fetchNote(id: milk.id).content == "Buy oat milk")
            await #expect(throws: NotesError.self) { try await manager.fetchNote(id: call.id) }
        }
    }
}
