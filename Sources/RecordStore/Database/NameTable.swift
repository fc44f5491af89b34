/// The name → slot table of a `KeyIndex`: open addressing with linear probing over one array of
/// 8-byte buckets, each a name's 32-bit hash and its slot. The names themselves live in the
/// key index's `names` array, so the table adds 16 to 32 bytes per record (it is kept at most
/// half full, so that a miss, the common case of a new record, ends after a probe or two); the
/// hash is a fast multiply-mix over the UTF-8 bytes, seeded per process, and a resize never
/// rehashes a name.
struct NameTable: Sendable {
    /// 0 = empty; otherwise `hash << 32 | (slot + 1)`.
    private var buckets: [UInt64] = []
    private(set) var count = 0
    private static let seed = UInt64.random(in: 1...UInt64.max)

    /// The hash the table files `name` under.
    static func hash(_ name: String) -> UInt32 {
        name.utf8.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) } ?? hash(Array(name.utf8))
    }

    /// Eight bytes at a time (in memory order: the hash lives only in this process), then the rest.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var state = seed ^ UInt64(bytes.count)
        func mix(_ word: UInt64) {
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state ^= state >> 29
        }
        var index = 0
        while index + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var word: UInt64 = 0
        for (shift, byte) in bytes[index...].enumerated() { word |= UInt64(byte) << (UInt64(shift) * 8) }
        mix(word)
        state = (state ^ (state >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: state ^ (state >> 32))
    }

    private static func hash(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// The slot of `name` (hashed `hash`), whose candidates are checked against `names`.
    func find(_ name: String, hash: UInt32, in names: [String]) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        switch probe(name, hash: hash, in: names) {
        case .found(let slot): return slot
        case .empty: return nil
        }
    }

    /// The slot of `name` if it is in the table; otherwise files `fresh` under it and returns
    /// `fresh`. One probe sequence either way.
    mutating func findOrInsert(_ name: String, hash: UInt32, in names: [String], fresh: Int32) -> Int32 {
        if (count + 1) * 2 > buckets.count { grow() }
        switch probe(name, hash: hash, in: names) {
        case .found(let slot):
            return slot
        case .empty(let index):
            buckets[index] = UInt64(hash) << 32 | UInt64(fresh + 1)
            count += 1
            return fresh
        }
    }

    private enum Probe {
        case found(Int32)
        /// The empty bucket where the name would go.
        case empty(Int)
    }

    private func probe(_ name: String, hash: UInt32, in names: [String]) -> Probe {
        let mask = buckets.count - 1
        var index = Int(hash) & mask
        while true {
            let bucket = buckets[index]
            if bucket == 0 { return .empty(index) }
            let slot = Int32(truncatingIfNeeded: bucket & 0xFFFF_FFFF) - 1
            if UInt32(truncatingIfNeeded: bucket >> 32) == hash, names[Int(slot)] == name { return .found(slot) }
            index = (index + 1) & mask
        }
    }

    /// Removes `name` (hashed `hash`) and returns its slot, nil if it was not there.
    mutating func remove(_ name: String, hash: UInt32, in names: [String]) -> Int32? {
        guard let slot = find(name, hash: hash, in: names) else { return nil }
        let mask = buckets.count - 1
        var hole = Int(hash) & mask
        while buckets[hole] & 0xFFFF_FFFF != UInt64(slot + 1) { hole = (hole + 1) & mask }
        // Backward shift: pull later buckets of the run into the hole when their home allows.
        var next = (hole + 1) & mask
        while buckets[next] != 0 {
            let home = Int(buckets[next] >> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
        count -= 1
        return slot
    }

    /// Makes room for `capacity` names without growing.
    mutating func reserveCapacity(_ capacity: Int) {
        while capacity * 2 > buckets.count { grow() }
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: 0, count: max(16, old.count * 2))
        let mask = buckets.count - 1
        for bucket in old where bucket != 0 {
            var index = Int(bucket >> 32) & mask
            while buckets[index] != 0 { index = (index + 1) & mask }
            buckets[index] = bucket
        }
    }
}
