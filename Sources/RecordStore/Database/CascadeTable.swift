/// A zone's `.deleteSelf` references, reversed: each referenced record name (a target), interned
/// to an id, with the slots of the records that reference it. Targets are few (a note's folder),
/// so a save hashes one short name and one integer; a target nothing references any more is
/// forgotten and its id reused.
struct CascadeTable: Sendable {
    private var ids = NameTable()
    private(set) var names: [String] = []
    /// Target id → slots (in `KeyIndex`) of the records that reference it.
    private var referrers: [Set<Int32>] = []
    private var freeIDs: [Int32] = []

    /// The slots of the records that reference `name`.
    func referrers(of name: String) -> Set<Int32> {
        ids.find(name, hash: NameTable.hash(name), in: names).map { referrers[Int($0)] } ?? []
    }

    /// Records that the record in `slot` references `name`; returns the target's id.
    mutating func link(_ slot: Int32, to name: String) -> Int32 {
        let hash = NameTable.hash(name)
        let id = ids.find(name, hash: hash, in: names) ?? add(name, hash: hash)
        referrers[Int(id)].insert(slot)
        return id
    }

    /// Forgets that the record in `slot` references the target `id`.
    mutating func unlink(_ slot: Int32, from id: Int32) {
        guard referrers[Int(id)].remove(slot) != nil, referrers[Int(id)].isEmpty else { return }
        _ = ids.remove(names[Int(id)], hash: NameTable.hash(names[Int(id)]), in: names)
        names[Int(id)] = ""
        freeIDs.append(id)
    }

    private mutating func add(_ name: String, hash: UInt32) -> Int32 {
        let id: Int32
        if let free = freeIDs.popLast() {
            id = free
            names[Int(id)] = name
        } else {
            id = Int32(names.count)
            names.append(name)
            referrers.append([])
        }
        ids.insert(slot: id, hash: hash)
        return id
    }

    init() {}

    /// A table of the targets `names` (by id; "" for an unused id) that nothing references yet,
    /// for `restoreLink`; nil if a name is there twice.
    init?(restoring names: [String]) {
        self.names = names
        referrers = Array(repeating: [], count: names.count)
        ids.reserveCapacity(names.count)
        for (id, name) in names.enumerated() where !name.isEmpty {
            let hash = NameTable.hash(name)
            guard ids.find(name, hash: hash, in: names) == nil else { return nil }
            ids.insert(slot: Int32(id), hash: hash)
        }
    }

    /// Records that `slot` references the target `id`; false if `id` is no target.
    mutating func restoreLink(_ slot: Int32, to id: Int32) -> Bool {
        guard names.indices.contains(Int(id)), !names[Int(id)].isEmpty else { return false }
        referrers[Int(id)].insert(slot)
        return true
    }

    /// Frees the ids nothing references, once every link is restored.
    mutating func finishRestoring() {
        for id in names.indices where referrers[id].isEmpty {
            if !names[id].isEmpty { _ = ids.remove(names[id], hash: NameTable.hash(names[id]), in: names) }
            names[id] = ""
            freeIDs.append(Int32(id))
        }
    }
}
