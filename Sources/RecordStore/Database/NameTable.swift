import StorageKit
/// The name → id table of a `CascadeTable`: a ``SlotTable`` whose names live in the caller's
/// `names` array, so that the table adds 16 to 32 bytes per name. (The key index files its
/// record names in a ``SlotTable`` of its own, over a `NameArena`.)
struct NameTable: Sendable {
    private var table = SlotTable()

    var count: Int { table.count }

    /// The hash the table files `name` under.
    static func hash(_ name: String) -> UInt32 {
        SlotTable.hash(name)
    }

    /// The slot of `name` (hashed `hash`), whose candidates are checked against `names`.
    func find(_ name: String, hash: UInt32, in names: [String]) -> Int32? {
        table.find(hash: hash) { names[Int($0)] == name }
    }

    /// The slot of `name` if it is in the table; otherwise files `fresh` under it and returns
    /// `fresh`. One probe sequence either way.
    mutating func findOrInsert(_ name: String, hash: UInt32, in names: [String], fresh: Int32) -> Int32 {
        table.findOrInsert(hash: hash, fresh: fresh) { names[Int($0)] == name }
    }

    /// Removes `name` (hashed `hash`) and returns its slot, nil if it was not there.
    mutating func remove(_ name: String, hash: UInt32, in names: [String]) -> Int32? {
        table.remove(hash: hash) { names[Int($0)] == name }
    }

    /// Makes room for `capacity` names without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        table.reserveCapacity(capacity)
    }
}
