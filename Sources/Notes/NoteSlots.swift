import Foundation

/// The notes of the Notes view in one array of slots, each note found by its id with one hash,
/// and each folder's notes kept in listing order (``FolderOrder``).
///
/// One table keyed by note id, rather than a table per folder, so that a save hashes the note's id
/// once, whether the note is new, stays in its folder or moves. A deleted note's slot is reused.
struct NoteSlots: Sendable {
    /// The notes by slot; a free slot holds an empty note.
    private(set) var notes: [Note] = []
    /// Note id → slot.
    private var slotOfID: [String: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// Folder id → its notes in order. A folder stays here once it has held a note, empty or not.
    private var folders: [String: FolderOrder] = [:]
    /// The room a new folder's order starts with.
    var folderCapacity = 0

    var count: Int { slotOfID.count }

    /// Makes room for `notes` notes without growing the tables.
    mutating func reserveCapacity(_ notes: Int) {
        self.notes.reserveCapacity(notes)
        slotOfID.reserveCapacity(notes)
    }

    /// The note with this id, if any.
    func note(_ id: String) -> Note? {
        slotOfID[id].map { notes[Int($0)] }
    }

    /// The ids of the folders that hold notes, ascending.
    var folderIDs: [String] {
        folders.compactMap { $0.value.isEmpty ? nil : $0.key }.sorted()
    }

    /// A folder's notes by modification date, then id.
    func notes(in folderID: String) -> [Note] {
        (folders[folderID]?.slots ?? []).map { notes[Int($0)] }
    }

    /// Adds `note`, or replaces the note with its id (moving it between folders as needed).
    mutating func save(_ note: Note) {
        let fresh = freeSlots.last ?? Int32(notes.count)
        var isNew = false
        let slot = Self.findOrFile(&slotOfID[note.id, default: -1], fresh: fresh, isNew: &isNew)
        if isNew {
            if slot == Int32(notes.count) { notes.append(note) } else { freeSlots.removeLast(); notes[Int(slot)] = note }
        } else {
            let previous = notes[Int(slot)]
            if previous.folderID == note.folderID, previous.modifiedAt == note.modifiedAt {
                notes[Int(slot)] = note
                return
            }
            folders[previous.folderID]?.remove(slot, previous, notes: notes)
            notes[Int(slot)] = note
        }
        folders[note.folderID, default: FolderOrder(capacity: folderCapacity)].insert(slot, note, notes: notes)
    }

    /// One hash for both finding and filing: `entry` is the table's value for the id, -1 when new.
    private static func findOrFile(_ entry: inout Int32, fresh: Int32, isNew: inout Bool) -> Int32 {
        if entry < 0 {
            entry = fresh
            isNew = true
        }
        return entry
    }

    /// Removes the note with this id; returns it, or nil when there is none.
    @discardableResult
    mutating func remove(_ id: String) -> Note? {
        guard let slot = slotOfID.removeValue(forKey: id) else { return nil }
        let note = notes[Int(slot)]
        folders[note.folderID]?.remove(slot, note, notes: notes)
        notes[Int(slot)] = Note(id: "", folderID: "")
        freeSlots.append(slot)
        return note
    }

    /// Every note, in no particular order.
    var allNotes: some Sequence<Note> {
        slotOfID.values.lazy.map { notes[Int($0)] }
    }
}
