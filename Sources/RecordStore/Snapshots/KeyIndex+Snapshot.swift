import StorageKit
/// A zone's key index as sections of a mapped snapshot (FORMAT.md §12.2, named by
/// ``KeyIndexSnapshot/ZoneSection``), read in place on open:
/// opening a store then costs its key index the CRC check and a few small tables, not a pass over
/// its records.
extension KeyIndex {
    /// Writes the index as the ``KeyIndexSnapshot/ZoneSection``s of `zoneName`'s part.
    func writeSnapshot(zoneName: String, to writer: inout ViewSnapshotWriter) throws {
        typealias Section = KeyIndexSnapshot.ZoneSection
        try writer.startSection(Section.meta)
        try writer.write(meta: KeyIndexSnapshot.ZoneMeta(liveCount: count, nameSeed: slots.seed, liveNameBytes: names.liveBytes, slotCount: entries.count))
        // Room after the arrays by slot, so that the next open's first new records do not move them.
        let spare = ViewSnapshotWriter.spare(after: entries.count)
        try writer.startSection(Section.zoneName)
        try Array(zoneName.utf8).withUnsafeBytes { try writer.write($0) }
        try writer.writeStrings(types.names, lengths: Section.typeNameLengths, bytes: Section.typeNames)
        try writer.startSection(Section.liveByType)
        // A count below zero only comes of a damaged snapshot's bookkeeping; written as 0, it no
        // longer adds up, and the next open replays.
        try liveByType.map { UInt64(max(0, $0)) }.withUnsafeBufferPointer { try writer.write($0) }
        try writer.writeStrings(targets.names, lengths: Section.targetNameLengths, bytes: Section.targetNames)
        try writer.startSection(Section.targetHeads)
        try targets.heads.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection(Section.targetCounts)
        try targets.counts.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection(Section.entries)
        try entries.withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        let refs = try writeNames(to: &writer)
        try writer.startSection(Section.nameRefs)
        try refs.withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        try writer.startSection(Section.nameTable)
        try slots.buckets.withUnsafeBufferPointer { try writer.write($0) }
        for (section, list) in [(Section.targetNext, targets.next), (Section.targetPrevious, targets.previous)] {
            try writer.startSection(section)
            try list.withUnsafeBufferPointer { try writer.write($0) }
            // Slots above the last one linked are in no list.
            try [Int32](repeating: -1, count: max(0, entries.count - list.count)).withUnsafeBufferPointer { try writer.write($0, spare: spare) }
        }
        try writer.startSection(Section.freeSlots)
        try freeSlots.withUnsafeBufferPointer { try writer.write($0) }
        try writer.startSection(Section.moreTargets)
        var more: [Int32] = []
        for (slot, ids) in moreTargets.sorted(by: { $0.key < $1.key }) { more += [slot, Int32(ids.count)] + ids }
        try more.withUnsafeBufferPointer { try writer.write($0) }
    }

    /// Writes the names, back to back in slot order, as the ``KeyIndexSnapshot/ZoneSection/names``
    /// section; returns their references into it (``NameArena``'s, all in page 0).
    private func writeNames(to writer: inout ViewSnapshotWriter) throws -> [UInt64] {
        try writer.startSection(KeyIndexSnapshot.ZoneSection.names)
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

    /// The index a zone's sections hold, and its zone's name; nil unless their counts agree (the
    /// values in them are checked where they are read).
    static func read(_ sections: SnapshotSections<KeyIndexSnapshot.ZoneSection>) -> (zoneName: String, index: KeyIndex)? {
        guard let meta = sections.meta(.meta, as: KeyIndexSnapshot.ZoneMeta.self),
            let types = sections.strings(lengths: .typeNameLengths, bytes: .typeNames).flatMap(TypeTable.init(restoring:)),
            let liveByType = sections.array(.liveByType, of: UInt64.self), liveByType.count == types.names.count,
            liveByType.allSatisfy({ $0 <= UInt64(meta.liveCount) }), liveByType.reduce(0, +) == UInt64(meta.liveCount),
            let targetNames = sections.strings(lengths: .targetNameLengths, bytes: .targetNames),
            let heads = sections.array(.targetHeads, of: Int32.self), let counts = sections.array(.targetCounts, of: Int32.self),
            let entries = sections.array(.entries, count: meta.slotCount, of: RecordEntry.self),
            let bytes = sections.array(.names, of: UInt8.self),
            let refs = sections.array(.nameRefs, count: entries.count, of: UInt64.self),
            let buckets = sections.array(.nameTable, of: UInt64.self),
            let next = sections.array(.targetNext, count: entries.count, of: Int32.self),
            let previous = sections.array(.targetPrevious, count: entries.count, of: Int32.self),
            let freeSlots = sections.array(.freeSlots, of: Int32.self), let more = sections.array(.moreTargets, of: Int32.self)
        else { return nil }
        let zoneName = String(decoding: sections.bytes(.zoneName), as: UTF8.self)
        guard freeSlots.count + meta.liveCount == entries.count,
            freeSlots.allSatisfy({ entries.indices.contains(Int($0)) }),
            let slots = SlotTable(buckets: buckets, count: meta.liveCount, seed: meta.nameSeed),
            let names = NameArena(refs: refs, bytes: bytes, liveBytes: meta.liveNameBytes),
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
