/// A zone's key index: every live record's name and `RecordEntry`, compact. The entries sit in
/// one contiguous array of fixed-size slots (a deleted record's slot is reused), the names in a
/// parallel array, and a `NameTable` maps a name to its slot: a save hashes its name once. Record
/// types are interned (`TypeTable`), `.deleteSelf` references are kept reversed as slot sets
/// (`CascadeTable`), and scans by type walk the entries.
struct KeyIndex: Sendable {
    private var slots = NameTable()
    /// Slot → record name; "" for a free slot.
    private(set) var names: [String] = []
    /// Slot → entry; a free slot's `typeID` is `freeType`.
    private(set) var entries: [RecordEntry] = []
    private var freeSlots: [Int32] = []
    private(set) var types = TypeTable()
    private(set) var targets = CascadeTable()
    /// Slot → the ids of its record's cascade targets after the first, for the rare record with several.
    private(set) var moreTargets: [Int32: [Int32]] = [:]
    static let freeType: Int32 = -1

    /// Rebuilds an index from a checkpoint's tables; nil when they do not fit together (a name,
    /// type or target twice, an id out of range), so the caller replays instead.
    init?(restoring tables: Tables) {
        guard tables.names.count == tables.entries.count, let types = TypeTable(restoring: tables.types),
            var targets = CascadeTable(restoring: tables.targets)
        else { return nil }
        guard slots.fill(tables.names) else { return nil }
        for (slot, entry) in tables.entries.enumerated() {
            guard types.names.indices.contains(Int(entry.typeID)) else { return nil }
            if entry.target != RecordEntry.noTarget, !targets.restoreLink(Int32(slot), to: entry.target, first: true) { return nil }
        }
        for (slot, more) in tables.moreTargets {
            guard tables.entries.indices.contains(Int(slot)), tables.entries[Int(slot)].target != RecordEntry.noTarget else { return nil }
            for id in more where id == tables.entries[Int(slot)].target || !targets.restoreLink(slot, to: id, first: false) { return nil }
        }
        targets.finishRestoring()
        self.names = tables.names
        self.entries = tables.entries
        self.types = types
        self.targets = targets
        self.moreTargets = tables.moreTargets
    }

    init() {}

    /// The number of live records.
    var count: Int { slots.count }

    subscript(name: String) -> RecordEntry? {
        self[name, hash: NameTable.hash(name)]
    }

    /// The entry of `name`, whose hash (``NameTable/hash(_:)``) the caller has: a commit hashes
    /// each name once, to look it up when planning and to file it when writing.
    subscript(name: String, hash hash: UInt32) -> RecordEntry? {
        slots.find(name, hash: hash, in: names).map { entries[Int($0)] }
    }

    func recordType(of entry: RecordEntry) -> String { types.name(entry.typeID) }

    /// Records a save of `name` (hashed `hash`, when the caller has it); returns the record type
    /// it had if it was live.
    @discardableResult
    mutating func save(
        name: String, hash: UInt32? = nil, recordType: String, offset: Int64, creationMillis: Int64, targets cascade: CascadeTargets
    ) -> String? {
        let typeID = types.intern(recordType)
        let fresh = freeSlots.last ?? Int32(entries.count)
        let slot = slots.findOrInsert(name, hash: hash ?? NameTable.hash(name), in: names, fresh: fresh)
        var previousType: String?
        if slot != fresh {
            previousType = types.name(entries[Int(slot)].typeID)
            unlinkTargets(of: slot)
        } else if freeSlots.popLast() != nil {
            names[Int(slot)] = name
        } else {
            entries.append(RecordEntry(offset: 0, creationMillis: 0, typeID: Self.freeType, target: RecordEntry.noTarget))
            names.append(name)
        }
        var target = RecordEntry.noTarget
        if let first = cascade.first {
            target = targets.link(slot, to: first, first: true)
            if !cascade.rest.isEmpty { moreTargets[slot] = cascade.rest.map { targets.link(slot, to: $0, first: false) } }
        }
        entries[Int(slot)] = RecordEntry(offset: offset, creationMillis: creationMillis, typeID: typeID, target: target)
        return previousType
    }

    /// Records a delete; returns the deleted record's type, nil if `name` was not live.
    @discardableResult
    mutating func delete(name: String) -> String? {
        guard let slot = slots.remove(name, hash: NameTable.hash(name), in: names) else { return nil }
        let type = types.name(entries[Int(slot)].typeID)
        unlinkTargets(of: slot)
        entries[Int(slot)].typeID = Self.freeType
        names[Int(slot)] = ""
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
        for (slot, entry) in entries.enumerated() where entry.typeID == typeID { result.append(names[slot]) }
        return result
    }

    /// The names of the records that reference `target` with `.deleteSelf`.
    func referrers(of target: String) -> [String] {
        targets.referrers(of: target).map { names[Int($0)] }
    }
}
