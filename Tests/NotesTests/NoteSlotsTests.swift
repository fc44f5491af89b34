import Foundation
import Testing
import TestSupport

@testable import Notes

/// The Notes view's storage keeps each folder in listing order as notes are added, edited, moved
/// between folders and deleted: checked against a plain dictionary sorted on every read.
@Suite struct NoteSlotsTests {
    /// The order the app lists a folder in, computed the plain way.
    private static func listed(_ model: [String: Note], in folderID: String) -> [Note] {
        model.values.filter { $0.folderID == folderID }.sorted { lhs, rhs in
            let left = lhs.modifiedAt ?? .distantPast, right = rhs.modifiedAt ?? .distantPast
            return left == right ? lhs.id < rhs.id : left < right
        }
    }

    @Test("random saves, moves, edits and deletes keep every folder in order", arguments: [1, 2, 3, 4] as [UInt64])
    func matchesModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var slots = NoteSlots()
        var model: [String: Note] = [:]
        let folders = ["a", "b", "c"]
        for step in 0..<2_000 {
            let id = "note-\(random.next() % 60)"
            if random.next() % 5 == 0 {
                #expect(slots.remove(id) == model.removeValue(forKey: id), "step \(step)")
            } else {
                // Dates from a small range, some missing, so that ties and out-of-order saves happen.
                let modified = random.next() % 7 == 0 ? nil : Date(timeIntervalSince1970: Double(random.next() % 40))
                let note = Note(
                    id: id, folderID: folders[Int(random.next() % 3)], content: "step \(step)",
                    createdAt: nil, modifiedAt: modified)
                slots.save(note)
                model[id] = note
            }
            #expect(slots.count == model.count)
        }
        for folder in folders {
            #expect(slots.notes(in: folder) == Self.listed(model, in: folder), "folder \(folder)")
        }
        #expect(slots.folderIDs == Set(model.values.map(\.folderID)).sorted())
        for (id, note) in model { #expect(slots.note(id) == note) }
        #expect(slots.note("note-missing") == nil)
    }

    @Test("a deleted note's slot is reused, and the folder it left no longer lists it")
    func slotReuse() {
        var slots = NoteSlots()
        let first = Note(id: "1", folderID: "f", content: "one", modifiedAt: Date(timeIntervalSince1970: 1))
        let second = Note(id: "2", folderID: "f", content: "two", modifiedAt: Date(timeIntervalSince1970: 2))
        slots.save(first)
        slots.save(second)
        #expect(slots.remove("1") == first)
        #expect(slots.remove("1") == nil, "a second delete finds nothing")
        let third = Note(id: "3", folderID: "g", content: "three", modifiedAt: Date(timeIntervalSince1970: 3))
        slots.save(third)
        #expect(slots.notes.count == 2, "the freed slot holds the new note")
        #expect(slots.notes(in: "f") == [second])
        #expect(slots.notes(in: "g") == [third])
        #expect(slots.folderIDs == ["f", "g"])
        #expect(slots.remove("2") == second)
        #expect(slots.folderIDs == ["g"], "an emptied folder is not listed")
    }
}
