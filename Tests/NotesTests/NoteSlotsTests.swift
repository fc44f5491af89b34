import Foundation
import Testing
import TestSupport

@testable import Notes
import StorageKit

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
        #expect(slots.cells.count == 2, "the freed slot holds the new note")
        #expect(slots.notes(in: "f") == [second])
        #expect(slots.notes(in: "g") == [third])
        #expect(slots.folderIDs == ["f", "g"])
        #expect(slots.remove("2") == second)
        #expect(slots.folderIDs == ["g"], "an emptied folder is not listed")
    }

    @Test("texts of any length and script, empty content and missing dates come back exactly")
    func textsRoundTrip() {
        var slots = NoteSlots()
        let long = String(repeating: "é🙂z", count: 200_000)  // longer than a page of the arena
        let notes = [
            Note(id: "a", folderID: "f", content: "", createdAt: nil, modifiedAt: nil),
            Note(id: "b", folderID: "dossier-é", content: "naïve café 日本語 🙂", createdAt: Date(timeIntervalSince1970: 1.5), modifiedAt: nil),
            Note(id: "c", folderID: "f", content: long, createdAt: nil, modifiedAt: Date(timeIntervalSinceReferenceDate: -3.25)),
            Note(id: "d", folderID: "f", content: "after the long one", createdAt: .distantPast, modifiedAt: .distantFuture),
        ]
        for note in notes { slots.save(note) }
        for note in notes { #expect(slots.note(note.id) == note) }
        #expect(slots.notes(in: "dossier-é") == [notes[1]])
        #expect(slots.notes(in: "f").map(\.id) == ["a", "c", "d"], "no date sorts first")
    }

    @Test("edits and deletes do not grow the texts' memory without bound: released texts are compacted away")
    func compaction() {
        var slots = NoteSlots()
        let content = String(repeating: "x", count: 1000)
        for round in 0..<50 {
            for index in 0..<100 {
                slots.save(Note(id: "note-\(index)", folderID: "f", content: "\(round) " + content, modifiedAt: Date(timeIntervalSince1970: Double(round))))
            }
            for index in stride(from: 0, to: 100, by: 10) where round % 2 == 1 { slots.remove("note-\(index)") }
        }
        // 100 notes of about 1 KB live; 5,000 saves wrote about 5 MB.
        #expect(slots.textCapacity <= 3 * TextArena.pageSize)
        #expect(slots.count == 90)
        for index in 0..<100 {
            let expected = index % 10 == 0 ? nil : Note(id: "note-\(index)", folderID: "f", content: "49 " + content, modifiedAt: Date(timeIntervalSince1970: 49))
            #expect(slots.note("note-\(index)") == expected)
        }
        #expect(slots.notes(in: "f").map(\.id) == (0..<100).filter { $0 % 10 != 0 }.map { "note-\($0)" }.sorted())
    }

    @Test("a note costs the view 48 bytes besides its id and text (the W9 budget)")
    func cellSize() {
        #expect(MemoryLayout<NoteCell>.stride == 48)
    }

    @Test("a cell lies in memory as FORMAT.md §12.1 gives it: the mapped snapshot reads cells in place")
    func cellLayout() {
        #expect(MemoryLayout<NoteCell>.size == 48, "no padding at the end")
        #expect(MemoryLayout<NoteCell>.offset(of: \.created) == 0)
        #expect(MemoryLayout<NoteCell>.offset(of: \.modified) == 8)
        #expect(MemoryLayout<NoteCell>.offset(of: \.id) == 16)
        #expect(MemoryLayout<NoteCell>.offset(of: \.content) == 28)
        #expect(MemoryLayout<NoteCell>.offset(of: \.folder) == 40)
        #expect(MemoryLayout<NoteCell>.offset(of: \.flags) == 44)
        #expect(MemoryLayout<TextRef>.offset(of: \.page) == 0)
        #expect(MemoryLayout<TextRef>.offset(of: \.offset) == 4)
        #expect(MemoryLayout<TextRef>.offset(of: \.count) == 8)
        #expect(MemoryLayout<TextRef>.size == 12)
    }
}
