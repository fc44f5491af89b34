import Foundation

/// One folder's notes as slots of a ``NoteSlots`` table, kept in the order the app lists them:
/// by modification date (a note never saved first), then by id.
///
/// Kept sorted as notes come and go, so that listing a folder copies its notes without sorting
/// them. New and edited notes usually sort last (their modification date is the newest), which
/// appends; any other change finds its place by binary search.
struct FolderOrder: Sendable {
    /// Slots in listing order.
    private(set) var slots: [Int32] = []

    init(capacity: Int) {
        slots.reserveCapacity(capacity)
    }

    var isEmpty: Bool { slots.isEmpty }

    /// Where a note sorts: its modification date, then its id.
    struct Key {
        var modified: Date
        var id: String

        init(_ note: Note) {
            modified = note.modifiedAt ?? .distantPast
            id = note.id
        }

        static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.modified == rhs.modified ? lhs.id < rhs.id : lhs.modified < rhs.modified
        }
    }

    /// Files `slot`, whose note is `note`; `notes` holds the notes of the slots already here.
    mutating func insert(_ slot: Int32, _ note: Note, notes: [Note]) {
        let key = Key(note)
        if let last = slots.last, !(Key(notes[Int(last)]) < key) {
            slots.insert(slot, at: firstIndex(notBefore: key, notes: notes))
        } else {
            slots.append(slot)
        }
    }

    /// Removes `slot`, whose note (still in `notes`) is `note`; the note must be here.
    mutating func remove(_ slot: Int32, _ note: Note, notes: [Note]) {
        var index = firstIndex(notBefore: Key(note), notes: notes)
        // Ids are unique, so the key finds the slot; the scan only guards against a caller's mistake.
        while index < slots.count, slots[index] != slot { index += 1 }
        if index < slots.count { slots.remove(at: index) }
    }

    /// The first position whose note does not sort before `key`.
    private func firstIndex(notBefore key: Key, notes: [Note]) -> Int {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if Key(notes[Int(slots[middle])]) < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
