import Foundation
import RecordStore
import StorageKit

/// The notes of the Notes view: one compact cell per note in an array of slots, the texts (ids and
/// contents) in a ``TextArena``, each note found by its id through a ``SlotTable``, and each
/// folder's notes kept in listing order (``FolderOrder``).
///
/// About 48 bytes per note besides its text, against some 200 for a `Note` with its three
/// strings; a note is rebuilt as a `Note` only when read. One table keyed by note id, rather than
/// a table per folder, so that a save hashes the note's id once, whether the note is new, stays in
/// its folder or moves. A deleted note's slot is reused. Ids are compared by their UTF-8 bytes
/// (record names are ASCII).
struct NoteSlots: Sendable {
    /// The cells by slot.
    private(set) var cells = MappedArray<NoteCell>()
    private(set) var texts = TextArena()
    /// Note id → slot (the ids are those of `cells`).
    private(set) var ids = SlotTable()
    private var freeSlots: [Int32] = []
    /// Folder id → index into `folderIDsByIndex` and `orders`. A folder stays once it has held a note.
    private var folderTable = SlotTable()
    private(set) var folderIDsByIndex: [String] = []
    private(set) var orders: [FolderOrder] = []
    /// The room a new folder's order starts with.
    var folderCapacity = 0

    var count: Int { ids.count }

    init() {}

    /// The slots a snapshot holds: no free slot, the folders' orders as given, and the folder
    /// table rebuilt from their ids; nil if an id repeats.
    init?(cells: MappedArray<NoteCell>, texts: TextArena, ids: SlotTable, folderIDs: [String], orders: [FolderOrder]) {
        self.cells = cells
        self.texts = texts
        self.ids = ids
        for var folderID in folderIDs {
            _ = folderID.withUTF8 { folderIndexFiling($0) }
        }
        guard folderIDsByIndex.count == orders.count else { return nil }
        // Filing made each folder an empty order; the snapshot's replace them.
        self.orders = orders
    }

    /// Makes room for `notes` notes without growing the tables.
    mutating func reserveCapacity(_ notes: Int) {
        cells.reserveCapacity(notes)
        ids.reserveCapacity(notes)
    }

    /// Starts loading where a lookup of `id` begins (``SlotTable/prefetch(hash:)``).
    func prefetch(id: String) {
        var id = id
        id.withUTF8 { ids.prefetch(hash: ids.hash(UnsafeRawBufferPointer($0))) }
    }

    private func slot(of id: UnsafeBufferPointer<UInt8>) -> Int32? {
        ids.find(hash: ids.hash(UnsafeRawBufferPointer(id))) { isNote(at: $0, id: id) }
    }

    /// Whether the note in `slot` has this id (no slot outside the cells does: only a damaged
    /// snapshot could point there).
    private func isNote(at slot: Int32, id: UnsafeBufferPointer<UInt8>) -> Bool {
        slot >= 0 && Int(slot) < cells.count && texts.withBytes(cells[Int(slot)].id) { $0.hasSameBytes(as: id) }
    }

    /// The note with this id, if any.
    func note(_ id: String) -> Note? {
        var id = id
        return id.withUTF8 { slot(of: $0) }.map { note(at: $0) }
    }

    /// The note in `slot`, rebuilt from its cell.
    private func note(at slot: Int32) -> Note {
        let cell = cell(slot)
        return Note(
            id: texts.string(cell.id), folderID: folderID(cell.folder), content: texts.string(cell.content),
            createdAt: cell.createdAt, modifiedAt: cell.modifiedAt)
    }

    /// The cell in `slot` (a free one for a slot outside the cells, which only a folder order
    /// read from a damaged snapshot could hold).
    private func cell(_ slot: Int32) -> NoteCell {
        slot >= 0 && Int(slot) < cells.count ? cells[Int(slot)] : .free
    }

    /// The id of folder `index` (empty for an index no folder has, which only a damaged snapshot
    /// could hold).
    private func folderID(_ index: Int32) -> String {
        folderIDsByIndex.indices.contains(Int(index)) ? folderIDsByIndex[Int(index)] : ""
    }

    /// The ids of the folders that hold notes, ascending.
    var folderIDs: [String] {
        zip(folderIDsByIndex, orders).compactMap { $1.isEmpty ? nil : $0 }.sorted()
    }

    private func folderIndex(of id: UnsafeBufferPointer<UInt8>) -> Int? {
        folderTable.find(hash: SlotTable.hash(UnsafeRawBufferPointer(id))) { index in
            var folder = folderIDsByIndex[Int(index)]
            return folder.withUTF8 { $0.hasSameBytes(as: id) }
        }.map(Int.init)
    }

    /// A folder's notes by modification date, then id (newest first: the reverse); from
    /// `twoThreadsFrom` notes on, the second half of them built on a second thread.
    func notes(in folderID: String, newestFirst: Bool = false, twoThreadsFrom: Int = .max) -> [Note] {
        var folderID = folderID
        guard let index = folderID.withUTF8({ folderIndex(of: $0) }) else { return [] }
        let slots = orders[index].slots
        texts.preload { visit in
            for slot in slots {
                let cell = cell(slot)
                visit(cell.id)
                visit(cell.content)
            }
        }
        let last = slots.count - 1
        return SecondThread.map(count: slots.count, twoThreadsFrom: twoThreadsFrom) { [self] position in
            note(at: slots[newestFirst ? last - position : position])
        }
    }

    /// Adds `note`, or replaces the note with its id (moving it between folders as needed).
    mutating func save(_ note: Note) {
        var id = note.id, folderID = note.folderID, content = note.content
        id.withUTF8 { id in
            folderID.withUTF8 { folderID in
                content.withUTF8 { content in
                    save(id: id, folderID: folderID, content: content, createdAt: note.createdAt, modifiedAt: note.modifiedAt)
                }
            }
        }
    }

    /// Adds the note with these fields, or replaces the note with its id; copies the bytes.
    mutating func save(
        id: UnsafeBufferPointer<UInt8>, folderID: UnsafeBufferPointer<UInt8>, content: UnsafeBufferPointer<UInt8>,
        createdAt: Date?, modifiedAt: Date?
    ) {
        let fresh = freeSlots.last ?? Int32(cells.count)
        // The table asks about the notes while it changes: lend it out of `self` meanwhile.
        var table = SlotTable()
        swap(&table, &ids)
        let slot = table.findOrInsert(hash: table.hash(UnsafeRawBufferPointer(id)), fresh: fresh) { isNote(at: $0, id: id) }
        swap(&table, &ids)
        let folder = Int32(folderIndexFiling(folderID))
        var cell = NoteCell(
            created: createdAt?.timeIntervalSinceReferenceDate ?? 0, modified: modifiedAt?.timeIntervalSinceReferenceDate ?? 0,
            id: .empty, content: .empty, folder: folder,
            flags: (createdAt == nil ? 0 : NoteCell.hasCreated) | (modifiedAt == nil ? 0 : NoteCell.hasModified))
        var stays = false
        if slot == fresh {
            cell.id = texts.append(id)
            if slot == Int32(cells.count) { cells.append(.free) } else { freeSlots.removeLast() }
        } else {
            let previous = cells[Int(slot)]
            cell.id = previous.id
            texts.release(previous.content)
            stays = previous.folder == folder && previous.flags & NoteCell.hasModified == cell.flags & NoteCell.hasModified && previous.modified == cell.modified
            if !stays { reorder(previous.folder) { $0.remove(slot, sortsBefore: $1) } }
        }
        cell.content = texts.append(content)
        cells[Int(slot)] = cell
        if !stays { reorder(folder) { $0.insert(slot, sortsBefore: $1) } }
        compactIfWanted()
    }

    /// Whether the note in slot `lhs` lists before the note in slot `rhs`: by modification date
    /// (a note never saved first), then by id.
    private static func sortsBefore(_ lhs: Int32, _ rhs: Int32, cells: MappedArray<NoteCell>, texts: TextArena) -> Bool {
        func cell(_ slot: Int32) -> NoteCell { slot >= 0 && Int(slot) < cells.count ? cells[Int(slot)] : .free }
        let left = cell(lhs), right = cell(rhs)
        let leftDate = left.flags & NoteCell.hasModified == 0 ? Date.distantPast.timeIntervalSinceReferenceDate : left.modified
        let rightDate = right.flags & NoteCell.hasModified == 0 ? Date.distantPast.timeIntervalSinceReferenceDate : right.modified
        if leftDate != rightDate { return leftDate < rightDate }
        return texts.withBytes(left.id) { leftID in texts.withBytes(right.id) { leftID.precedesBytes(of: $0) } }
    }

    /// Applies `change` to the order of `folder`, which it may arrange with ``sortsBefore(_:_:)``.
    private mutating func reorder(_ folder: Int32, _ change: (inout FolderOrder, (Int32, Int32) -> Bool) -> Void) {
        guard orders.indices.contains(Int(folder)) else { return }
        // Taken out of `self` meanwhile, so that the comparison may read the cells.
        var order = FolderOrder(capacity: 0)
        swap(&order, &orders[Int(folder)])
        // The comparison reads the cells and texts through these, not `self`: a closure over
        // `self` copied all of it (some ten references retained and released) on every save.
        let cells = cells, texts = texts
        change(&order) { Self.sortsBefore($0, $1, cells: cells, texts: texts) }
        swap(&order, &orders[Int(folder)])
    }

    /// The index of the folder `id`, filed now if new.
    private mutating func folderIndexFiling(_ id: UnsafeBufferPointer<UInt8>) -> Int {
        let fresh = Int32(folderIDsByIndex.count)
        var table = SlotTable()
        swap(&table, &folderTable)
        let index = table.findOrInsert(hash: SlotTable.hash(UnsafeRawBufferPointer(id)), fresh: fresh) { index in
            var folder = folderIDsByIndex[Int(index)]
            return folder.withUTF8 { $0.hasSameBytes(as: id) }
        }
        swap(&table, &folderTable)
        if index == fresh {
            folderIDsByIndex.append(String(decoding: id, as: UTF8.self))
            orders.append(FolderOrder(capacity: folderCapacity))
        }
        return Int(index)
    }

    /// Removes the note with this id; returns it, or nil when there is none.
    @discardableResult
    mutating func remove(_ id: String) -> Note? {
        var id = id
        return id.withUTF8 { id in
            var table = SlotTable()
            swap(&table, &ids)
            let slot = table.remove(hash: table.hash(UnsafeRawBufferPointer(id))) { isNote(at: $0, id: id) }
            swap(&table, &ids)
            guard let slot else { return nil }
            let note = note(at: slot)
            let cell = cells[Int(slot)]
            reorder(cell.folder) { $0.remove(slot, sortsBefore: $1) }
            texts.release(cell.id)
            texts.release(cell.content)
            cells[Int(slot)] = .free
            freeSlots.append(slot)
            compactIfWanted()
            return note
        }
    }

    /// Rewrites the live texts into a new arena once released texts outweigh them.
    private mutating func compactIfWanted() {
        guard texts.wantsCompaction else { return }
        var compacted = TextArena()
        for index in cells.indices where !cells[index].isFree {
            cells[index].id = texts.withBytes(cells[index].id) { compacted.append($0) }
            cells[index].content = texts.withBytes(cells[index].content) { compacted.append($0) }
        }
        texts = compacted
    }

    /// Every note, in no particular order.
    var allNotes: some Sequence<Note> {
        cells.indices.lazy.filter { !cells[$0].isFree }.map { note(at: Int32($0)) }
    }

    /// Memory the texts take, in bytes (for tests of compaction).
    var textCapacity: Int { texts.capacity }
}
