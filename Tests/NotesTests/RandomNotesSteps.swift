import Foundation
import Notes
import RecordStore
import Testing
import TestSupport

/// Random folder and note operations through the facade — new folders, folder deletions, note
/// saves, edits, deletions and moves between folders. After each step, the views the facade
/// reads from must equal the same views rebuilt by replaying the log. Returns the folders left.
@discardableResult
func randomNotesSteps(
    _ count: Int, _ manager: RecordNotesManager, _ database: Database, _ random: inout SeededGenerator
) async throws -> [Folder] {
    var folders = try await manager.fetchFolders()
    for step in 0..<count {
        switch random.next() % 10 {
        case 0:
            folders.append(try await manager.save(manager.newFolder(name: "Folder \(step)")))
        case 1 where folders.count > 2:
            let index = Int(random.next() % UInt64(folders.count - 1)) + 1
            try await manager.delete(folders.remove(at: index))
        case 2:
            let folder = folders[Int(random.next() % UInt64(folders.count))]
            if let note = try await manager.fetchNotes(in: folder).first { try await manager.delete(note) }
        case 3:
            let from = folders[Int(random.next() % UInt64(folders.count))]
            let to = folders[Int(random.next() % UInt64(folders.count))]
            if var note = try await manager.fetchNotes(in: from).first {
                note.folderID = to.id
                _ = try await manager.save(note)
            }
        default:
            let folder = folders[Int(random.next() % UInt64(folders.count))]
            var note = try await manager.fetchNotes(in: folder).first ?? manager.newNote(in: folder)
            if random.next() % 2 == 0 { note = manager.newNote(in: folder) }
            note.content = "step \(step): " + String(repeating: "é", count: Int(random.next() % 30))
            _ = try await manager.save(note)
        }
        #expect(await manager.folders.current == (try database.rebuild(FoldersView.self)), "step \(step)")
        #expect(await manager.notes.current == (try database.rebuild(NotesView.self)), "step \(step)")
    }
    return folders
}
