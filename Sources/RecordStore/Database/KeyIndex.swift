import StorageKit
/// A zone's key index: every live record's name and `RecordEntry`, compact. The entries sit in
/// one contiguous array of fixed-size slots (a deleted record's slot is reused), the names in a
/// `NameArena` by slot, and a `SlotTable` maps a name to its slot: a save hashes its name once.
/// Record types are interned (`TypeTable`) and counted, `.deleteSelf` references are kept
/// reversed as slot lists (`CascadeTable`), and scans by type walk the entries.
///
/// Every array is a ``MappedArray``: a checkpoint's index (`KeyIndex+Snapshot.swift`) is read in
/// place, so that opening a store touches none of its records. Values read from a snapshot are
/// checked where they are used (a slot, type or target id out of range reads as absent), as the
/// snapshot was checked only for its CRCs and counts.
struct KeyIndex: Sendable {
    // Internal rather than private: the checkpoint (`KeyIndex+Snapshot.swift`) writes and reads them.
    /// Record name → slot, hashed with the table's own seed (``hash(_:)``).
    var slots = SlotTable()
    /// Slot → record name; empty for a free slot.
    var names = NameArena()
    /// Slot → entry; a free slot's `typeID` is `freeType`.
    var entries = MappedArray<RecordEntry>()
    /// The free slots; a new record takes the last.
    var freeSlots = MappedArray<Int32>()
    /// Every record type ever saved in the zone, by id.
    var types = TypeTable()
    /// Type id → how many live records have it.
    var liveByType: [Int] = []
    var targets = CascadeTable()
    /// Slot → the ids of its record's cascade targets after the first, for the rare record with several.
    var moreTargets: [Int32: [Int32]] = [:]
    static let freeType: Int32 = -1

    init() {}

    /// The number of live records.
    var count: Int { slots.count }

    /// The hash `name` is filed under in this index (its table's seed).
    func hash(_ name: String) -> UInt32 {
        let seed = slots.seed
        return Self.withUTF8(name) { SlotTable.hash($0, seed: seed) }
    }

    /// Starts loading where a lookup of the name hashed `hash` begins (``SlotTable/prefetch(hash:)``).
    func prefetch(hash: UInt32) { slots.prefetch(hash: hash) }

    /// Calls `body` with `name`'s UTF-8, without copying a native string.
    @inline(__always)
    static func withUTF8<Result>(_ name: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = name.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var copy = name
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    private func slot(of name: String, hash: UInt32) -> Int32? {
        // The closures capture the two tables, not `self`: capturing the whole index copied it
        // (some twenty references retained and released) on every lookup.
        Self.withUTF8(name) { [slots, names] utf8 in slots.find(hash: hash) { names.matches($0, utf8) } }
    }

    subscript(name: String) -> RecordEntry? {
        self[name, hash: hash(name)]
    }

    /// The entry of `name`, whose hash (``hash(_:)``) the caller has: a commit hashes each name
    /// once, to look it up when planning and to file it when writing.
    subscript(name: String, hash hash: UInt32) -> RecordEntry? {
        guard let slot = slot(of: name, hash: hash) else { return nil }
        let entry = entries[Int(slot)]
        return types.names.indices.contains(Int(entry.typeID)) ? entry : nil
    }

    func recordType(of entry: RecordEntry) -> String { types.name(entry.typeID) }

    /// Records a save of `name` (hashed `hash`, when the caller has it); returns the record type
    /// it had if it was live.
    @discardableResult
    mutating func save(
        name: String, hash: UInt32? = nil, recordType: String, offset: Int64, creationMillis: Int64, targets cascade: CascadeTargets
    ) -> String? {
        let typeID = types.intern(recordType)
        if liveByType.count < types.names.count { liveByType.append(contentsOf: repeatElement(0, count: types.names.count - liveByType.count)) }
        let fresh = freeSlots.last ?? Int32(entries.count)
        let slot = Self.withUTF8(name) { utf8 in
            slots.findOrInsert(hash: hash ?? slots.hash(utf8), fresh: fresh) { names.matches($0, utf8) }
        }
        var previousType: String?
        if slot != fresh {
            let previous = entries[Int(slot)].typeID
            if liveByType.indices.contains(Int(previous)) {
                previousType = types.name(previous)
                liveByType[Int(previous)] -= 1
            }
            unlinkTargets(of: slot)
        } else if !freeSlots.isEmpty {
            freeSlots.removeLast()
            Self.withUTF8(name) { names.set(Int(slot), to: $0) }
        } else {
            entries.append(RecordEntry(offset: 0, creationMillis: 0, typeID: Self.freeType, target: RecordEntry.noTarget))
            Self.withUTF8(name) { names.append($0) }
        }
        var target = RecordEntry.noTarget
        if let first = cascade.first {
            target = targets.link(slot, to: first, first: true)
            if !cascade.rest.isEmpty { moreTargets[slot] = cascade.rest.map { targets.link(slot, to: $0, first: false) } }
        }
        entries[Int(slot)] = RecordEntry(offset: offset, creationMillis: creationMillis, typeID: typeID, target: target)
        liveByType[Int(typeID)] += 1
        return previousType
    }

    /// Records a delete; returns the deleted record's type, nil if `name` was not live.
    @discardableResult
    mutating func delete(name: String) -> String? {
        let removed = Self.withUTF8(name) { utf8 in slots.remove(hash: slots.hash(utf8)) { names.matches($0, utf8) } }
        guard let slot = removed else { return nil }
        let typeID = entries[Int(slot)].typeID
        let type = types.name(typeID)
        if liveByType.indices.contains(Int(typeID)) { liveByType[Int(typeID)] -= 1 }
        unlinkTargets(of: slot)
        entries[Int(slot)].typeID = Self.freeType
        names.clear(Int(slot))
        freeSlots.append(slot)
        return type
    }

    private mutating func unlinkTargets(of slot: Int32) {
        let first = entries[Int(slot)].target
        guard first != RecordEntry.noTarget else { return }
        targets.unlink(slot, from: first, first: true)
        if !moreTargets.isEmpty, let more = moreTargets.removeValue(forKey: slot) {
            for id in more { targets.unlink(slot, from: id, first: false) }
        }
    }

    /// The names of the live records of `recordType`, in slot order.
    func names(ofType recordType: String) -> [String] {
        guard let typeID = types.id(of: recordType) else { return [] }
        var result: [String] = []
        for (slot, entry) in entries.enumerated() where entry.typeID == typeID { result.append(names.name(slot)) }
        return result
    }

    /// The names of the records that reference `target` with `.deleteSelf`.
    func referrers(of target: String) -> [String] {
        targets.referrers(of: target).map { names.name(Int($0)) }
    }

    /// How many live records of each type the index holds (what a view replaying the zone will see).
    var liveRecordsByType: [String: Int] {
        var byType: [String: Int] = [:]
        for (id, count) in liveByType.enumerated() where count > 0 { byType[types.name(Int32(id))] = count }
        return byType
    }
}
