/// A zone's `.deleteSelf` references, reversed: each referenced record name (a target), interned
/// to an id, with the slots of the records that reference it. A record's first target links its
/// slot into the target's doubly linked list (two arrays by slot: no hashing, no allocation per
/// record); further targets, rare, are kept in sets. A target nothing references any more is
/// forgotten and its id reused.
struct CascadeTable: Sendable {
    private var ids = NameTable()
    /// Target id → name; "" for an unused id.
    private(set) var names: [String] = []
    /// Target id → the first slot of its list (-1: none), and how many records reference it.
    private var heads: [Int32] = []
    private var counts: [Int32] = []
    /// Slot → the next and previous slot in the list of its record's first target (-1: none).
    private var next: [Int32] = []
    private var previous: [Int32] = []
    /// Target id → the slots that reference it as a further target.
    private var further: [Int32: Set<Int32>] = [:]
    private var freeIDs: [Int32] = []
    /// The id `link` gave last, while it names a target.
    private var lastLinked: Int32?

    init() {}

    /// The slots of the records that reference `name`.
    func referrers(of name: String) -> [Int32] {
        guard let id = ids.find(name, hash: NameTable.hash(name), in: names) else { return [] }
        var slots: [Int32] = []
        var slot = heads[Int(id)]
        while slot >= 0 {
            slots.append(slot)
            slot = next[Int(slot)]
        }
        return slots + (further[id] ?? [])
    }

    /// Records that the record in `slot` references `name`, as its first target or a further
    /// one; returns the target's id.
    mutating func link(_ slot: Int32, to name: String, first: Bool) -> Int32 {
        // Records saved together mostly reference one target (their folder): the last one
        // linked is found without hashing its name.
        if let last = lastLinked, names[Int(last)] == name {
            attach(slot, to: last, first: first)
            return last
        }
        let fresh = freeIDs.last ?? Int32(names.count)
        let id = ids.findOrInsert(name, hash: NameTable.hash(name), in: names, fresh: fresh)
        if id == fresh { add(name, id: id) }
        attach(slot, to: id, first: first)
        lastLinked = id
        return id
    }

    private mutating func attach(_ slot: Int32, to id: Int32, first: Bool) {
        counts[Int(id)] += 1
        guard first else {
            further[id, default: []].insert(slot)
            return
        }
        while next.count <= Int(slot) {
            next.append(-1)
            previous.append(-1)
        }
        let head = heads[Int(id)]
        next[Int(slot)] = head
        previous[Int(slot)] = -1
        if head >= 0 { previous[Int(head)] = slot }
        heads[Int(id)] = slot
    }

    /// Forgets that the record in `slot` references the target `id` (as linked by `link`).
    mutating func unlink(_ slot: Int32, from id: Int32, first: Bool) {
        if first {
            let (before, after) = (previous[Int(slot)], next[Int(slot)])
            if before >= 0 { next[Int(before)] = after } else { heads[Int(id)] = after }
            if after >= 0 { previous[Int(after)] = before }
            next[Int(slot)] = -1
            previous[Int(slot)] = -1
        } else {
            further[id]?.remove(slot)
            if further[id]?.isEmpty == true { further[id] = nil }
        }
        counts[Int(id)] -= 1
        if counts[Int(id)] == 0 { release(id) }
    }

    private mutating func release(_ id: Int32) {
        _ = ids.remove(names[Int(id)], hash: NameTable.hash(names[Int(id)]), in: names)
        names[Int(id)] = ""
        freeIDs.append(id)
        if lastLinked == id { lastLinked = nil }
    }

    /// Takes `id` (the last free one, or the next new one) for `name`, just filed in `ids`.
    private mutating func add(_ name: String, id: Int32) {
        if freeIDs.popLast() != nil {
            names[Int(id)] = name
        } else {
            names.append(name)
            heads.append(-1)
            counts.append(0)
        }
    }

    /// A table of the targets `names` (by id; "" for an unused id) that nothing references yet,
    /// for `restoreLink`; nil if a name is there twice.
    init?(restoring names: [String]) {
        self.names = names
        heads = Array(repeating: -1, count: names.count)
        counts = Array(repeating: 0, count: names.count)
        ids.reserveCapacity(names.count)
        for (id, name) in names.enumerated() where !name.isEmpty {
            guard ids.findOrInsert(name, hash: NameTable.hash(name), in: names, fresh: Int32(id)) == Int32(id) else { return nil }
        }
    }

    /// Records that `slot` references the target `id`; false if `id` is no target, or a further
    /// target the slot already references.
    mutating func restoreLink(_ slot: Int32, to id: Int32, first: Bool) -> Bool {
        guard names.indices.contains(Int(id)), !names[Int(id)].isEmpty, first || further[id]?.contains(slot) != true else { return false }
        attach(slot, to: id, first: first)
        return true
    }

    /// Frees the ids nothing references, once every link is restored.
    mutating func finishRestoring() {
        for id in names.indices where counts[id] == 0 && !names[id].isEmpty { release(Int32(id)) }
        freeIDs = names.indices.filter { names[$0].isEmpty }.map(Int32.init)
    }
}
