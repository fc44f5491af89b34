extension SlotTable {
    /// Files slots `0..<hashes.count` of an empty table, slot `i` under `hashes[i]`, in the order
    /// of their home buckets, so that the inserts walk the buckets front to back instead of
    /// missing the cache once per name (a million names: a 16 MB table). Returns the first slot
    /// whose name is already filed — `isSameName(filed, slot)` tells — or nil when every name is
    /// distinct; the table is then left partly filled.
    public mutating func fill(hashes: [UInt32], isSameName: (Int32, Int32) -> Bool) -> Int32? {
        precondition(count == 0, "fill(hashes:) needs an empty table")
        reserveCapacity(hashes.count)
        let mask = UInt32(truncatingIfNeeded: buckets.count - 1)
        for slot in Self.slotsByHome(hashes, mask: mask) {
            let filed = findOrInsert(hash: hashes[Int(slot)], fresh: slot) { isSameName($0, slot) }
            if filed != slot { return slot }
        }
        return nil
    }

    /// The slots sorted by home bucket (`hash & mask`): a least-significant-digit radix sort of
    /// `home << 32 | slot` keys, 11 bits of the home per pass.
    private static func slotsByHome(_ hashes: [UInt32], mask: UInt32) -> [Int32] {
        var keys = hashes.enumerated().map { UInt64($1 & mask) << 32 | UInt64($0) }
        var sorted = [UInt64](repeating: 0, count: keys.count)
        let digitBits: UInt64 = 11, digitMask: UInt64 = (1 << 11) - 1
        var shift: UInt64 = 32
        while shift < 64, UInt64(mask) >> (shift - 32) != 0 {
            var starts = [Int](repeating: 0, count: 1 << digitBits)
            for key in keys { starts[Int(key >> shift & digitMask)] += 1 }
            var total = 0
            for digit in starts.indices {
                let size = starts[digit]
                starts[digit] = total
                total += size
            }
            for key in keys {
                let digit = Int(key >> shift & digitMask)
                sorted[starts[digit]] = key
                starts[digit] += 1
            }
            swap(&keys, &sorted)
            shift += digitBits
        }
        return keys.map { Int32(truncatingIfNeeded: $0) }
    }
}
