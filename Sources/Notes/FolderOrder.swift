import RecordStore
import StorageKit

/// One folder's notes as slots of a ``NoteSlots`` table, kept in the order the app lists them:
/// by modification date (a note never saved first), then by id.
///
/// Kept sorted as notes come and go, so that listing a folder copies its notes without sorting
/// them. New and edited notes usually sort last (their modification date is the newest), which
/// appends; any other change finds its place by binary search. The order of two slots is the
/// owner's: each change takes `sortsBefore`, which compares the notes in two slots.
struct FolderOrder: Sendable {
    /// Slots in listing order.
    private(set) var slots = MappedArray<Int32>()

    init(capacity: Int) {
        slots.reserveCapacity(capacity)
    }

    /// The order a snapshot holds.
    init(slots: MappedArray<Int32>) {
        self.slots = slots
    }

    var isEmpty: Bool { slots.isEmpty }

    /// Files `slot`, whose note is already in place.
    mutating func insert(_ slot: Int32, sortsBefore: (Int32, Int32) -> Bool) {
        if let last = slots.last, !sortsBefore(last, slot) {
            slots.insert(slot, at: firstIndex(notBefore: slot, sortsBefore: sortsBefore))
        } else {
            slots.append(slot)
        }
    }

    /// Removes `slot`, whose note is still in place; the slot must be here.
    mutating func remove(_ slot: Int32, sortsBefore: (Int32, Int32) -> Bool) {
        var index = firstIndex(notBefore: slot, sortsBefore: sortsBefore)
        // Ids are unique, so the key finds the slot; the scan only guards against a caller's mistake.
        while index < slots.count, slots[index] != slot { index += 1 }
        if index < slots.count { slots.remove(at: index) }
    }

    /// The first position whose note does not sort before the note in `slot`.
    private func firstIndex(notBefore slot: Int32, sortsBefore: (Int32, Int32) -> Bool) -> Int {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if sortsBefore(slots[middle], slot) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
