import StorageKit
/// A zone's key index as sections of a mapped snapshot (FORMAT.md §12.2), read in place on open:
/// opening a store then costs its key index the CRC check and a few small tables, not a pass over
/// its records.
extension KeyIndex {
    /// How many sections one zone's index takes.
    static let sectionCount = 17

    /// Writes the index as ``sectionCount`` sections, the first of them `zoneName`'s meta.
    func writeSnapshot(zoneName: String, to writer: inout ViewSnapshotWriter) throws {
        try writer.startSection()
        let meta = [UInt64(count), slots.seed, UInt64(names.liveBytes), UInt64(entries.count)]
        // Room after the arrays by slot, so that the next open's first new records do not move them.
        let spare = ViewSnapshotWriter.spare(after: entries.count)
        try meta.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection()
        try Array(zoneName.utf8).withUnsafeBytes { try writer.write($0) }
        try writer.writeStrings(types.names)
        try writer.startSection()
        // A count below zero only comes of a damaged snapshot's bookkeeping; written as 0, it no
        // longer adds up, and the next open replays.
        try liveByType.map { UInt64(max(0, $0)) }.withUnsafeBufferPointer { try writer.write($0) }
        try writer.writeStrings(targets.names)
        try writer.startSection()
        try targets.heads.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection()
        try targets.counts.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection()
        try entries.withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        let refs = try writeNames(to: &writer)
        try writer.startSection()
        try refs.withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        try writer.startSection()
        try slots.buckets.withUnsafeBufferPointer { try writer.write($0) }
        for list in [targets.next, targets.previous] {
            try writer.startSection()
            try list.withUnsafeBufferPointer { try writer.write($0) }
            // Slots above the last one linked are in no list.
            try [Int32](repeating: -1, count: max(0, entries.count - list.count)).withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        }
        try writer.startSection()
        try freeSlots.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection()
        var more: [Int32] = []
        for (slot, ids) in moreTargets.sorted(by: { $0.key < $1.key }) { more += [slot, Int32(ids.count)] + ids }
        try more.withUnsafeBufferPointer { try writer.write($0) }
    }

    /// Writes the names, back to back in slot order, as one section; returns their references
    /// into it (``NameArena``'s, all in page 0).
    private func writeNames(to writer: inout ViewSnapshotWriter) throws -> [UInt64] {
        try writer.startSection()
        var refs = [UInt64](repeating: 0, count: names.count)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(NameArena.pageSize)
        var written = 0
        for slot in refs.indices {
            names.withName(slot) { name in
                guard !name.isEmpty else { return }
                refs[slot] = UInt64(written + buffer.count) << 16 | UInt64(name.count)
                buffer.append(contentsOf: name)
            }
            if buffer.count >= NameArena.pageSize {
                try buffer.withUnsafeBytes { try writer.write($0) }
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        guard written + buffer.count <= Int(UInt32.max) else {
            throw RecordStoreError(.internalError, "A zone's record names exceed the 4 GiB a key index checkpoint holds.")
        }
        try buffer.withUnsafeBytes { try writer.write($0) }
        return refs
    }

    /// The index of the ``sectionCount`` sections from `first` on, and its zone's name; nil
    /// unless their counts agree (the values in them are checked where they are read).
    static func read(_ snapshot: MappedViewSnapshot, from first: Int) -> (zoneName: String, index: KeyIndex)? {
        func array<Element: BitwiseCopyable & Sendable>(_ section: Int, of _: Element.Type = Element.self) -> MappedArray<Element>? {
            snapshot.array(first + section)
        }
        guard let meta = array(0, of: UInt64.self), meta.count == 4, meta[0] <= meta[3], meta[3] <= UInt64(Int32.max),
            let zoneName = snapshot.section(first + 1).map({ String(decoding: $0, as: UTF8.self) }),
            let types = snapshot.strings(lengths: first + 2, bytes: first + 3).flatMap(TypeTable.init(restoring:)),
            let liveByType = array(4, of: UInt64.self), liveByType.count == types.names.count,
            liveByType.allSatisfy({ $0 <= meta[0] }), liveByType.reduce(0, +) == meta[0],
            let targetNames = snapshot.strings(lengths: first + 5, bytes: first + 6),
            let heads = array(7, of: Int32.self), let counts = array(8, of: Int32.self),
            let entries = snapshot.array(first + 9, count: Int(meta[3]), of: RecordEntry.self), let bytes = array(10, of: UInt8.self),
            let refs = snapshot.array(first + 11, count: entries.count, of: UInt64.self), let buckets = array(12, of: UInt64.self),
            let next = snapshot.array(first + 13, count: entries.count, of: Int32.self),
            let previous = snapshot.array(first + 14, count: entries.count, of: Int32.self),
            let freeSlots = array(15, of: Int32.self), let more = array(16, of: Int32.self)
        else { return nil }
        let count = Int(meta[0])
        guard freeSlots.count + count == entries.count,
            freeSlots.allSatisfy({ entries.indices.contains(Int($0)) }),
            let slots = SlotTable(buckets: buckets, count: count, seed: meta[1]),
            let names = NameArena(refs: refs, bytes: bytes, liveBytes: Int(clamping: meta[2])),
            let moreTargets = moreTargets(more, slots: entries.count),
            let targets = CascadeTable(names: targetNames, heads: heads, counts: counts, next: next, previous: previous, moreTargets: moreTargets)
        else { return nil }
        var index = KeyIndex()
        index.slots = slots
        index.names = names
        index.entries = entries
        index.freeSlots = freeSlots
        index.types = types
        index.liveByType = liveByType.map { Int($0) }
        index.targets = targets
        index.moreTargets = moreTargets
        return (zoneName, index)
    }

    /// The further targets of `more`: per record, its slot, how many, then their ids.
    private static func moreTargets(_ more: MappedArray<Int32>, slots: Int) -> [Int32: [Int32]]? {
        var result: [Int32: [Int32]] = [:]
        var index = 0
        while index < more.count {
            guard index + 2 <= more.count else { return nil }
            let slot = more[index], count = Int(more[index + 1])
            guard (0..<slots).contains(Int(slot)), count > 0, count <= more.count - index - 2, result[slot] == nil else { return nil }
            result[slot] = Array(more[(index + 2)..<(index + 2 + count)])
            index += 2 + count
        }
        return result
    }
}
