import CPrefetch

/// A hash table from names to the slots of an array the caller keeps: for views (and the key
/// index) that store values in a plain array and need to find one by its record name.
///
/// Open addressing with linear probing over one array of 8-byte buckets, each a name's 32-bit hash
/// and its slot; the names themselves live in the caller's storage, and the table asks the caller
/// whether the name at a slot is the one sought. Kept at most half full, so that a miss ends after
/// a probe or two; a resize never rehashes a name. The hash (``hash(_:)``) is a fast multiply-mix
/// over the UTF-8 bytes, seeded per process — or, for a table saved in a snapshot, with the seed
/// it was saved with. The buckets are a ``MappedArray``, so a table may be read in place from a
/// mapped snapshot.
///
/// A saved table is versioned by the snapshot that saves it: the hash is part of that snapshot's
/// format (FORMAT.md §12.1), so the version field of its meta (a ``SnapshotMeta``, checked on
/// read; the key index keeps it in its file's header) versions the hash too, and a change to the
/// hash must come with a new version of each snapshot that saves a table. `SlotTableTests` pins
/// the hash to FORMAT.md's definition.
///
/// ```swift
/// var table = SlotTable()
/// var names: [String] = []
/// let name = "note-1", hash = SlotTable.hash(name)
/// let slot = table.findOrInsert(hash: hash, fresh: Int32(names.count)) { names[Int($0)] == name }
/// if slot == Int32(names.count) { names.append(name) }
/// ```
@usableFromInline package struct SlotTable: Sendable {
    /// 0 = empty; otherwise `hash << 32 | (slot + 1)`.
    @usableFromInline package private(set) var buckets = MappedArray<UInt64>()
    /// How many names the table holds.
    @usableFromInline package private(set) var count = 0
    /// The seed of ``hash(_:)-swift.type.method``: this process's.
    @usableFromInline package static let processSeed = UInt64.random(in: 1...UInt64.max)
    /// The seed of the hashes this table files names under (``hash(_:seed:)``).
    @usableFromInline package let seed: UInt64

    /// An empty table, for hashes made with `seed` (by default, this process's: the hashes of
    /// ``hash(_:)-swift.type.method``).
    @inlinable
    package init(seed: UInt64 = processSeed) {
        self.seed = seed
    }

    /// A table saved earlier: its buckets (as ``buckets`` held them), how many names they file,
    /// and the seed their hashes were made with; nil unless the bucket count is zero or a power of
    /// two that holds `count` names at most half full.
    @inlinable
    package init?(buckets: MappedArray<UInt64>, count: Int, seed: UInt64) {
        guard buckets.count & (buckets.count &- 1) == 0, count >= 0, count * 2 <= buckets.count else { return nil }
        self.buckets = buckets
        self.count = count
        self.seed = seed
    }

    /// The hash the table files `name` under.
    @inlinable
    package static func hash(_ name: String) -> UInt32 {
        name.utf8.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) } ?? Array(name.utf8).withUnsafeBytes { hash($0) }
    }

    /// The hash a table with this process's seed files a name under, given its UTF-8 bytes.
    @inlinable
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        hash(bytes, seed: processSeed)
    }

    /// The hash this table files a name under, given its UTF-8 bytes.
    @inlinable
    package func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        Self.hash(bytes, seed: seed)
    }

    /// The hash of a name's UTF-8 bytes under `seed`.
    @inlinable
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt32 {
        var state = seed ^ UInt64(bytes.count)
        func mix(_ word: UInt64) {
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state ^= state >> 29
        }
        var index = 0
        while index + 8 <= bytes.count {
            // Memory order: the hash lives only in this process.
            mix(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        // The last 0–7 bytes as a little-endian word (FORMAT.md §12.1). With 8 bytes or more in
        // all, one load of the last 8 (overlapping bytes already mixed), shifted down: a
        // byte-by-byte loop showed in change fetches, whose names are 11–13 bytes.
        let tail = bytes.count - index
        var word: UInt64 = 0
        if tail > 0, bytes.count >= 8 {
            word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) >> (UInt64(8 - tail) * 8)
        } else {
            for (shift, byte) in bytes[index...].enumerated() { word |= UInt64(byte) << (UInt64(shift) * 8) }
        }
        mix(word)
        state = (state ^ (state >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: state ^ (state >> 32))
    }

    /// Starts loading the bucket where a lookup of `hash` begins, without waiting for it: a caller
    /// about to look up many names prefetches them all first, so that their cache misses overlap
    /// instead of coming one after another (in a table of a million names nearly every lookup
    /// misses).
    @inlinable @inline(__always)
    package func prefetch(hash: UInt32) {
        buckets.withUnsafeBufferPointer { buckets in
            guard let base = buckets.baseAddress, !buckets.isEmpty else { return }
            recordlog_prefetch(base + (Int(hash) & (buckets.count - 1)))
        }
    }

    /// The slot of the name hashed `hash`, or nil; `isMatch(slot)` tells whether the caller's name
    /// at a candidate slot is the one sought.
    @inlinable
    package func find(hash: UInt32, where isMatch: (Int32) -> Bool) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        switch probe(hash: hash, isMatch) {
        case .found(let slot): return slot
        case .empty, .full: return nil
        }
    }

    /// The slot of the name hashed `hash` if the table holds it; otherwise files `fresh` under
    /// `hash` and returns `fresh`. One probe sequence either way.
    @inlinable
    package mutating func findOrInsert(hash: UInt32, fresh: Int32, where isMatch: (Int32) -> Bool) -> Int32 {
        if (count + 1) * 2 > buckets.count { grow() }
        while true {
            switch probe(hash: hash, isMatch) {
            case .found(let slot):
                return slot
            case .empty(let index):
                buckets[index] = UInt64(hash) << 32 | UInt64(UInt32(bitPattern: fresh + 1))
                count += 1
                return fresh
            case .full:
                grow()
            }
        }
    }

    /// Removes the name hashed `hash` and returns its slot, nil if the table does not hold it.
    @inlinable
    package mutating func remove(hash: UInt32, where isMatch: (Int32) -> Bool) -> Int32? {
        guard let slot = find(hash: hash, where: isMatch) else { return nil }
        let mask = buckets.count - 1
        var hole = Int(hash) & mask
        while buckets[hole] & 0xFFFF_FFFF != UInt64(UInt32(bitPattern: slot + 1)) { hole = (hole + 1) & mask }
        // Backward shift: pull later buckets of the run into the hole when their home allows.
        var next = (hole + 1) & mask
        var steps = 1
        // At most one lap, as in `probe`.
        while steps < buckets.count, buckets[next] != 0 {
            let home = Int(buckets[next] >> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
            steps += 1
        }
        buckets[hole] = 0
        count -= 1
        return slot
    }

    /// Makes room for `capacity` names without growing.
    @inlinable
    package mutating func reserveCapacity(_ capacity: Int) {
        var size = max(16, buckets.count)
        while capacity * 2 > size { size *= 2 }
        if size > buckets.count { resize(to: size) }
    }

    @usableFromInline enum Probe {
        case found(Int32)
        /// The empty bucket where the name would go.
        case empty(Int)
        /// Not found, and no bucket is empty (only in a table read from a damaged snapshot).
        case full
    }

    @inlinable func probe(hash: UInt32, _ isMatch: (Int32) -> Bool) -> Probe {
        let mask = buckets.count - 1
        var index = Int(hash) & mask
        // A table is at most half full, but one read from a damaged snapshot may have no empty
        // bucket: one lap round the table ends the search.
        for _ in 0..<buckets.count {
            let bucket = buckets[index]
            if bucket == 0 { return .empty(index) }
            // Wrapping: a bucket read from a damaged snapshot may hold any 32 bits, and
            // 0x8000_0000 − 1 overflows an Int32 (it wraps to a slot no caller holds).
            let slot = Int32(truncatingIfNeeded: bucket & 0xFFFF_FFFF) &- 1
            if UInt32(truncatingIfNeeded: bucket >> 32) == hash, isMatch(slot) { return .found(slot) }
            index = (index + 1) & mask
        }
        return .full
    }

    @inlinable mutating func grow() {
        resize(to: max(16, buckets.count * 2))
    }

    @inlinable mutating func resize(to size: Int) {
        let old = buckets
        buckets = MappedArray(repeating: 0, count: size)
        let mask = buckets.count - 1
        for bucket in old where bucket != 0 {
            var index = Int(bucket >> 32) & mask
            while buckets[index] != 0 { index = (index + 1) & mask }
            buckets[index] = bucket
        }
    }
}
