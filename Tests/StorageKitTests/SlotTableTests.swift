import Testing
@testable import StorageKit
import TestSupport

/// `SlotTable` finds, files and removes names kept in the caller's array, as a dictionary would,
/// including when many names share a hash (long probe runs, removals from their middle).
@Suite struct SlotTableTests {
    /// Random inserts and removals against a dictionary; `hashOf` chooses the hashes (the real
    /// one, or a few values so that runs collide).
    private func check(seed: UInt64, hashOf: (String) -> UInt32) {
        var random = SeededGenerator(seed: seed)
        var table = SlotTable()
        var names: [String] = []
        var free: [Int32] = []
        var model: [String: Int32] = [:]
        for step in 0..<3_000 {
            let name = "n\(random.next() % 400)"
            let hash = hashOf(name)
            if random.next() % 3 == 0 {
                let removed = table.remove(hash: hash) { names[Int($0)] == name }
                #expect(removed == model.removeValue(forKey: name), "step \(step)")
                if let removed { free.append(removed) }
            } else {
                let fresh = free.last ?? Int32(names.count)
                let slot = table.findOrInsert(hash: hash, fresh: fresh) { names[Int($0)] == name }
                if let known = model[name] {
                    #expect(slot == known, "step \(step)")
                } else {
                    #expect(slot == fresh, "step \(step)")
                    if fresh == Int32(names.count) { names.append(name) } else { names[Int(free.removeLast())] = name }
                    model[name] = fresh
                }
            }
            #expect(table.count == model.count)
        }
        for index in 0..<400 {
            let name = "n\(index)"
            #expect(table.find(hash: hashOf(name)) { names[Int($0)] == name } == model[name])
        }
    }

    @Test("matches a dictionary under random inserts and removals", arguments: [1, 2, 3] as [UInt64])
    func matchesDictionary(seed: UInt64) {
        check(seed: seed) { SlotTable.hash($0) }
    }

    @Test("matches a dictionary when every name shares one of three hashes")
    func collidingHashes() {
        check(seed: 9) { UInt32($0.utf8.count % 3) }
    }

    @Test("the hash of a string is the hash of its UTF-8 bytes, and stable within a process")
    func hashOfBytes() {
        for name in ["", "a", "note-00000001", "a name longer than sixteen bytes", "é✓"] {
            let bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBytes { SlotTable.hash($0) } == SlotTable.hash(name))
            #expect(SlotTable.hash(name) == SlotTable.hash(String(name)))
        }
    }

    /// FORMAT.md §12.1's hash, byte by byte: mapped snapshots hold tables filed by it.
    private static func definedHash(_ bytes: [UInt8], seed: UInt64) -> UInt32 {
        var state = seed ^ UInt64(bytes.count)
        func mix(_ word: UInt64) {
            state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
            state ^= state >> 29
        }
        var words = bytes[...]
        while words.count >= 8 {
            mix(words.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (UInt64($1.offset) * 8) })
            words = words.dropFirst(8)
        }
        mix(words.enumerated().reduce(0) { $0 | UInt64($1.element) << (UInt64($1.offset) * 8) })
        state = (state ^ (state >> 32)) &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: state ^ (state >> 32))
    }

    @Test("the hash is FORMAT.md's definition for every length, however it reads the last bytes", arguments: [0, 1, 0x1234_5678_9ABC_DEF0] as [UInt64])
    func hashIsTheDefinition(seed: UInt64) {
        var random = SeededGenerator(seed: seed &+ 5)
        for length in 0...40 {
            for _ in 0..<8 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                #expect(bytes.withUnsafeBytes { SlotTable.hash($0, seed: seed) } == Self.definedHash(bytes, seed: seed), "\(length) bytes")
            }
        }
    }

    @Test("reserving capacity keeps every name findable")
    func reserve() {
        var table = SlotTable()
        let names = (0..<100).map { "r\($0)" }
        for (slot, name) in names.enumerated() {
            _ = table.findOrInsert(hash: SlotTable.hash(name), fresh: Int32(slot)) { names[Int($0)] == name }
        }
        table.reserveCapacity(10_000)
        for (slot, name) in names.enumerated() {
            #expect(table.find(hash: SlotTable.hash(name)) { names[Int($0)] == name } == Int32(slot))
        }
        #expect(table.find(hash: SlotTable.hash("absent")) { names[Int($0)] == "absent" } == nil)
    }

    @Test("a table reserved for a million names in one step works as a grown one")
    func largeTable() {
        var table = SlotTable()
        table.reserveCapacity(1 << 20)
        let names = (0..<50_000).map { "large-\($0)" }
        for (slot, name) in names.enumerated() {
            #expect(table.findOrInsert(hash: SlotTable.hash(name), fresh: Int32(slot)) { names[Int($0)] == name } == Int32(slot))
        }
        for (slot, name) in names.enumerated().reversed() where slot % 7 == 0 {
            #expect(table.remove(hash: SlotTable.hash(name)) { names[Int($0)] == name } == Int32(slot))
        }
        #expect(table.count == names.count - (names.count + 6) / 7)
        for (slot, name) in names.enumerated() {
            #expect(table.find(hash: SlotTable.hash(name)) { names[Int($0)] == name } == (slot % 7 == 0 ? nil : Int32(slot)))
        }
    }

    @Test("a table read from a damaged snapshot, with no empty bucket, answers without looping forever")
    func noEmptyBucket() throws {
        // Every bucket filed (slot 0, hash 7) although the table claims one name: only damage does that.
        let buckets = MappedArray<UInt64>(repeating: 7 << 32 | 1, count: 16)
        var table = try #require(SlotTable(buckets: buckets, count: 1, seed: 1))
        #expect(table.find(hash: 3) { _ in false } == nil)
        #expect(table.remove(hash: 3) { _ in false } == nil)
        #expect(table.findOrInsert(hash: 3, fresh: 5) { _ in false } == 5, "the table grows to make room")
        #expect(table.find(hash: 3) { $0 == 5 } == 5)
        #expect(table.remove(hash: 7) { $0 == 0 } == 0)
    }

    @Test("a table read from a damaged snapshot answers for buckets holding any slot number, 2³¹ among them")
    func anySlotNumber() throws {
        // A bucket's low 32 bits are its slot + 1; damage can put there 0 or 0x8000_0000, whose
        // slot − 1 overflowed an Int32 (found by the notes-snapshot fuzz target).
        var buckets = MappedArray<UInt64>(repeating: 0, count: 16)
        for (index, low) in [0x8000_0000, 0, 0xFFFF_FFFF, 0x7FFF_FFFF].enumerated() { buckets[3 + index] = 3 << 32 | UInt64(low) }
        var table = try #require(SlotTable(buckets: buckets, count: 4, seed: 1))
        var asked: [Int32] = []
        #expect(table.find(hash: 3) { asked.append($0); return false } == nil)
        #expect(asked == [Int32.max, -1, -2, 0x7FFF_FFFE], "each bucket's slot, wrapped, is the caller's to refuse")
        #expect(table.findOrInsert(hash: 3, fresh: 2) { _ in false } == 2)
        #expect(table.find(hash: 3) { $0 == 2 } == 2)
    }
}
