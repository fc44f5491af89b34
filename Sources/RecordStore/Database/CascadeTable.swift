import StorageKit
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
    private(set) var heads = MappedArray<Int32>()
    private(set) var counts = MappedArray<Int32>()
    /// Slot → the next and previous slot in the list of its record's first target (-1: none).
    /// Read in place from a checkpoint (``MappedArray``), so every slot read is checked.
    private(set) var next = MappedArray<Int32>()
    private(set) var previous = MappedArray<Int32>()
    /// Target id → the slots that reference it as a further target.
    private var further: [Int32: Set<Int32>] = [:]
    private var freeIDs: [Int32] = []
    /// The id `link` gave last, while it names a target.
    private var lastLinked: Int32?

    init() {}

    /// The slots of the records that reference `name`.
    func referrers(of name: String) -> [Int32] {
        guard let id = ids.find(name, hash: NameTable.hash(name), in: names), heads.indices.contains(Int(id)) else { return [] }
        var slots: [Int32] = []
        var slot = heads[Int(id)]
        // At most one visit per slot, should a damaged checkpoint's lists loop.
        while next.indices.contains(Int(slot)), slots.count < next.count {
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
        // Wrapping: a count read from a damaged snapshot may be anything (a real one is at most
        // the number of records); wrong, it only delays or hastens releasing the target's id.
        counts[Int(id)] &+= 1
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
        if next.indices.contains(Int(head)) { previous[Int(head)] = slot }
        heads[Int(id)] = slot
    }

    /// Forgets that the record in `slot` references the target `id` (as linked by `link`).
    mutating func unlink(_ slot: Int32, from id: Int32, first: Bool) {
        guard heads.indices.contains(Int(id)) else { return }
        if first {
            guard next.indices.contains(Int(slot)) else { return }
            let (before, after) = (previous[Int(slot)], next[Int(slot)])
            if next.indices.contains(Int(before)) { next[Int(before)] = after } else { heads[Int(id)] = after }
            if next.indices.contains(Int(after)) { previous[Int(after)] = before }
            next[Int(slot)] = -1
            previous[Int(slot)] = -1
        } else {
            further[id]?.remove(slot)
            if further[id]?.isEmpty == true { further[id] = nil }
        }
        counts[Int(id)] &-= 1
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

    /// The table a checkpoint saved: the target names by id ("" for an unused id), each id's
    /// list head and count, each slot's next and previous, and the further targets by slot
    /// (`moreTargets`); nil when their counts disagree or a name is there twice. The lists are
    /// read in place and checked where they are walked.
    init?(
        names: [String], heads: MappedArray<Int32>, counts: MappedArray<Int32>, next: MappedArray<Int32>, previous: MappedArray<Int32>,
        moreTargets: [Int32: [Int32]]
    ) {
        guard heads.count == names.count, counts.count == names.count, next.count == previous.count else { return nil }
        ids.reserveCapacity(names.count)
        for (id, name) in names.enumerated() where !name.isEmpty {
            guard ids.findOrInsert(name, hash: NameTable.hash(name), in: names, fresh: Int32(id)) == Int32(id) else { return nil }
        }
        for (slot, more) in moreTargets {
            for id in more {
                guard names.indices.contains(Int(id)), !names[Int(id)].isEmpty, further[id, default: []].insert(slot).inserted else { return nil }
            }
        }
        self.names = names
        self.heads = heads
        self.counts = counts
        self.next = next
        self.previous = previous
        freeIDs = names.indices.filter { names[$0].isEmpty }.map(Int32.init)
    }
}
