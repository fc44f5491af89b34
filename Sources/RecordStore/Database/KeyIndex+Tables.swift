extension KeyIndex {
    /// The tables of a key index as a checkpoint holds them: live records only, in slot order.
    struct Tables {
        var names: [String] = []
        var entries: [RecordEntry] = []
        var types: [String] = []
        /// Cascade target names by id; "" for an unused id.
        var targets: [String] = []
        /// Record (slot) → its further cascade target ids.
        var moreTargets: [Int32: [Int32]] = [:]
    }

    /// The index's tables, its live records numbered from 0 in slot order.
    var tables: Tables {
        var tables = Tables(types: types.names, targets: targets.names)
        tables.names.reserveCapacity(count)
        tables.entries.reserveCapacity(count)
        for (slot, entry) in entries.enumerated() where entry.typeID != Self.freeType {
            if let more = moreTargets[Int32(slot)] { tables.moreTargets[Int32(tables.entries.count)] = more }
            tables.names.append(names[slot])
            tables.entries.append(entry)
        }
        return tables
    }
}
