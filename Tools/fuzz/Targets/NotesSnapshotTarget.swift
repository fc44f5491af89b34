import Foundation
import Notes
import RecordStore

/// The Notes view's mapped snapshot `view-notes-notes.mapped` (FORMAT.md §12, §12.1: slot table,
/// cells, LZ4 text pages, folder sections), as a store's open reads it: the file opened and its
/// checksums checked, then the view built on its sections in place. Each input is tried as given
/// and again resealed (every block CRC and the footer's made right), so that the fuzzer reaches
/// the sections. The open must refuse it (the store then rebuilds the view by replay) or give a
/// view on which every read and write a store makes works without a trap or a read out of
/// bounds: each folder listed both ways, each note looked up by id, every note compared, then
/// notes edited, moved, added and deleted on top of the mapped sections, and the view's next
/// snapshot written and read back.
enum NotesSnapshotTarget {
    static func run(_ input: [UInt8]) { MappedSnapshotSeal.readAsGivenAndResealed(input) { read($0) } }

    static func accepts(_ input: [UInt8]) -> Bool { read(input) }

    @discardableResult
    private static func read(_ bytes: [UInt8]) -> Bool {
        let path = Scratch.write(bytes, to: "view-notes-notes.mapped")
        guard let snapshot = UntrustedBytes.openViewSnapshot(path: path), var view = NotesView(snapshot: snapshot) else { return false }
        exercise(&view)
        return true
    }

    private static let zone = ZoneID(zoneName: "Notes")

    /// Every read the store serves from the view, then live commits folded into it.
    private static func exercise(_ view: inout NotesView) {
        // Equality reads every cell and looks each note up by its id.
        _ = view == view
        var listed: [Note] = []
        for folder in view.folderIDs {
            listed += view.notes(in: folder, newestFirst: false)
            _ = view.notes(in: folder, newestFirst: true)
        }
        for note in listed { _ = view.note(note.id) }
        _ = view.note("")
        // Writes over the mapped sections: notes edited in place and moved to a new folder,
        // a new note (which appends a cell and a text), then deletes.
        let date = Date(timeIntervalSinceReferenceDate: 1_000_000)
        for (index, note) in listed.prefix(4).enumerated() {
            view.apply(.saved(record(note.id, folder: index.isMultiple(of: 2) ? note.folderID : "fuzz-folder", content: "edit \(index)", date)))
        }
        view.apply(.saved(record("fuzz-new-note", folder: "fuzz-folder", content: "new", date)))
        require(view.note("fuzz-new-note")?.content == "new", "a note saved over a snapshot's view is not found")
        _ = view.notes(in: "fuzz-folder", newestFirst: false)
        for note in listed.prefix(8) + [Note(id: "fuzz-new-note", folderID: "fuzz-folder")] {
            view.apply(.deleted(RecordID(recordName: note.id, zoneID: zone), recordType: Note.recordType))
        }
        for folder in view.folderIDs { _ = view.notes(in: folder, newestFirst: false) }
        // The next checkpoint writes what the view holds, and the open after it reads that.
        let store = Scratch.directory + "/notes-rewrite"
        try? FileManager.default.createDirectory(atPath: store + "/snapshots", withIntermediateDirectories: true)
        if let rewritten = try? UntrustedBytes.rewriteViewSnapshot(view, directory: store), let again = NotesView(snapshot: rewritten) {
            _ = again == again
        }
    }

    private static func record(_ id: String, folder: String, content: String, _ date: Date) -> Record {
        var record = Record(recordType: Note.recordType, recordID: RecordID(recordName: id, zoneID: zone))
        record[Note.Fields.content.rawValue] = .string(content)
        record[Note.Fields.folderID.rawValue] = .reference(
            Reference(recordID: RecordID(recordName: folder, zoneID: zone), action: .deleteSelf))
        return record
    }

    /// Snapshots the store writes: of a view with no note, and of notes in two folders (an empty
    /// one, a long one, one deleted), with the room after the cells cut off (a few KB instead
    /// of 200).
    static func seeds() async throws -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, count) in [("empty", 0), ("two-folders", 7)] {
            let store = Scratch.freshDirectory("notes-seeds")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let database = try await Database(directory: store, durability: .noSyncUnsafe, logger: Scratch.silent)
            let manager = try await RecordNotesManager(database: database)
            let inbox = try await manager.createDefaultFolder()
            let work = try await manager.save(Folder(id: "work", name: "Work"))
            var saved: [Note] = []
            for index in 0..<count {
                let content = index == 2 ? "" : index == 3 ? String(repeating: "a long note, ", count: 40) : "note \(index)\nbody"
                saved.append(try await manager.save(Note(id: "note-\(index)", folderID: index.isMultiple(of: 3) ? work.id : inbox.id, content: content)))
            }
            if let last = saved.last { try await manager.delete(last) }
            try database.checkpoint()
            try database.close()
            let path = store + "/snapshots/view-notes-notes.mapped"
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // Section 1 (the cells) keeps its N cells of 48 bytes; N is section 0's second word.
            var notes = 0
            let trimmed = MappedSnapshotSeal.trimmed(written) { index, section in
                if index == 0 { notes = MappedSnapshotSeal.word(section, 1) }
                return index == 1 ? 48 * notes : section.count
            }
            guard let trimmed, notes == max(0, count - 1) else { throw FuzzSeedError("cannot lay out \(path) again (\(notes) notes)") }
            seeds.append((name, trimmed))
        }
        return seeds
    }
}
