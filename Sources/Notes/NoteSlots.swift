import Foundation
import RecordStore

/// The notes of the Notes view in one array of slots, each note found by its id through a
/// ``SlotTable`` (one fast hash, no per-note key copy), and each folder's notes kept in listing
/// order (``FolderOrder``).
///
/// One table keyed by note id, rather than a table per folder, so that a save hashes the note's id
/// once, whether the note is new, stays in its folder or moves. A deleted note's slot is reused.
struct NoteSlots: Sendable {
    /// The notes by slot; a free slot holds an empty note.
    private(set) var notes: [Note] = []
    /// Note id → slot (the ids are those of `notes`).
    private var ids = SlotTable()
    private var freeSlots: [Int32] = []
    /// Folder id → index into `folderIDs` and `orders`. A folder stays once it has held a note.
    private var folderTable = SlotTable()
    private var folderIDsByIndex: [String] = []
    private var orders: [FolderOrder] = []
    /// The room a new folder's order starts with.
    var folderCapacity = 0

    var count: Int { ids.count }

    /// Makes room for `notes` notes without growing the tables.
    mutating func reserveCapacity(_ notes: Int) {
        self.notes.reserveCapacity(notes)
        ids.reserveCapacity(notes)
    }

    private func slot(of id: String) -> Int32? {
        ids.find(hash: SlotTable.hash(id)) { notes[Int($0)].id == id }
    }

    /// The note with this id, if any.
    func note(_ id: String) -> Note? {
        slot(of: id).map { notes[Int($0)] }
    }

    /// The ids of the folders that hold notes, ascending.
    var folderIDs: [String] {
        zip(folderIDsByIndex, orders).compactMap { $1.isEmpty ? nil : $0 }.sorted()
    }

    private func folderIndex(of id: String) -> Int? {
        folderTable.find(hash: SlotTable.hash(id)) { folderIDsByIndex[Int($0)] == id }.map(Int.init)
    }

    /// A folder's notes by modification date, then id.
    func notes(in folderID: String) -> [Note] {
        guard let index = folderIndex(of: folderID) else { return [] }
        return orders[index].slots.map { notes[Int($0)] }
    }

    /// Adds `note`, or replaces the note with its id (moving it between folders as needed).
    mutating func save(_ note: Note) {
        let fresh = freeSlots.last ?? Int32(notes.count)
        // The table asks about the notes while it changes: lend it out of `self` meanwhile.
        var table = SlotTable()
        swap(&table, &ids)
        let slot = table.findOrInsert(hash: SlotTable.hash(note.id), fresh: fresh) { notes[Int($0)].id == note.id }
        swap(&table, &ids)
        if slot == fresh {
            if slot == Int32(notes.count) { notes.append(note) } else { freeSlots.removeLast(); notes[Int(slot)] = note }
        } else {
            let previous = notes[Int(slot)]
            if previous.folderID == note.folderID, previous.modifiedAt == note.modifiedAt {
                notes[Int(slot)] = note
                return
            }
            if let index = folderIndex(of: previous.folderID) { orders[index].remove(slot, previous, notes: notes) }
            notes[Int(slot)] = note
        }
        orders[folderIndexFiling(note.folderID)].insert(slot, note, notes: notes)
    }

    /// The index of the folder `id`, filed now if new.
    private mutating func folderIndexFiling(_ id: String) -> Int {
        let fresh = Int32(folderIDsByIndex.count)
        var table = SlotTable()
        swap(&table, &folderTable)
        let index = table.findOrInsert(hash: SlotTable.hash(id), fresh: fresh) { folderIDsByIndex[Int($0)] == id }
        swap(&table, &folderTable)
        if index == fresh {
            folderIDsByIndex.append(id)
            orders.append(FolderOrder(capacity: folderCapacity))
        }
        return Int(index)
    }

    /// Removes the note with this id; returns it, or nil when there is none.
    @discardableResult
    mutating func remove(_ id: String) -> Note? {
        var table = SlotTable()
        swap(&table, &ids)
        let slot = table.remove(hash: SlotTable.hash(id)) { notes[Int($0)].id == id }
        swap(&table, &ids)
        guard let slot else { return nil }
        let note = notes[Int(slot)]
        if let index = folderIndex(of: note.folderID) { orders[index].remove(slot, note, notes: notes) }
        notes[Int(slot)] = Note(id: "", folderID: "")
        freeSlots.append(slot)
        return note
    }

    /// Every note, in no particular order.
    var allNotes: some Sequence<Note> {
        let free = Set(freeSlots)
        return notes.indices.lazy.filter { !free.contains(Int32($0)) }.map { notes[$0] }
    }
}
