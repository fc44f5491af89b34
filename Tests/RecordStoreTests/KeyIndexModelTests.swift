@testable import RecordStore
import Testing
import TestSupport
import StorageKit

/// The key index against a plain model (dictionaries and sets) over random saves and deletes:
/// lookups, scans by type and cascade referrers must agree, also after a checkpoint round trip.
@Suite struct KeyIndexModelTests {
    private struct Model {
        var entries: [String: (type: String, offset: Int64, targets: [String])] = [:]

        func names(ofType type: String) -> Set<String> { Set(entries.filter { $0.value.type == type }.keys) }

        func referrers(of target: String) -> Set<String> { Set(entries.filter { $0.value.targets.contains(target) }.keys) }
    }

    private func expectAgreement(_ index: KeyIndex, _ model: Model, names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(index.count == model.entries.count, sourceLocation: sourceLocation)
        for name in names {
            let entry = index[name]
            #expect(entry?.offset == model.entries[name]?.offset, "\(name)", sourceLocation: sourceLocation)
            #expect(entry.map(index.recordType(of:)) == model.entries[name]?.type, sourceLocation: sourceLocation)
            #expect(Set(index.referrers(of: name)) == model.referrers(of: name), "referrers of \(name)", sourceLocation: sourceLocation)
        }
        for type in ["A", "B", "C"] {
            #expect(Set(index.names(ofType: type)) == model.names(ofType: type), sourceLocation: sourceLocation)
        }
    }

    @Test("a target forgotten after being linked last, its id reused by another target, is linked anew")
    func lastLinkedTargetReleased() {
        var index = KeyIndex()
        index.save(name: "a", recordType: "A", offset: 0, creationMillis: 0, targets: CascadeTargets(single: "t1"))
        index.delete(name: "a")
        index.save(name: "b", recordType: "A", offset: 1, creationMillis: 0, targets: CascadeTargets(single: "t2"))
        index.save(name: "c", recordType: "A", offset: 2, creationMillis: 0, targets: CascadeTargets(single: "t1"))
        index.save(name: "d", recordType: "A", offset: 3, creationMillis: 0, targets: CascadeTargets(single: "t1"))
        #expect(index.referrers(of: "t2") == ["b"])
        #expect(Set(index.referrers(of: "t1")) == ["c", "d"])
        let hash = NameTable.hash("b")
        #expect(index["b", hash: hash]?.offset == 1)
    }

    /// `index` written to a key index snapshot in `directory` and read back, in place.
    private func roundTrip(_ index: KeyIndex, in directory: String) throws -> KeyIndex {
        let path = directory + "/key-index.mapped"
        let storeID = [UInt8](repeating: 7, count: 16)
        try KeyIndexSnapshot.write([(name: "zone", incarnation: 3, offset: 1 << 40, records: index)], storeID: storeID, to: path)
        let read = try #require(KeyIndexSnapshot.read(path: path) { Issue.record("rejected: \($0)") })
        #expect(read.storeID == storeID)
        let zone = try #require(read.zones["zone"])
        #expect(zone.covered == ZonePosition(incarnation: 3, offset: 1 << 40))
        return zone.records
    }

    /// Random saves (with cascade targets) and deletes of `names`, applied to the index and the model.
    private func randomSteps(
        _ steps: Range<Int>, names: [String], index: inout KeyIndex, model: inout Model, random: inout SeededGenerator
    ) throws {
        for step in steps {
            let name = try #require(names.randomElement(using: &random))
            if Int.random(in: 0..<3, using: &random) == 0 {
                let type = index.delete(name: name)
                #expect(type == model.entries.removeValue(forKey: name)?.type)
                continue
            }
            let type = try #require(["A", "B", "C"].randomElement(using: &random))
            let targets = (0..<Int.random(in: 0...3, using: &random)).compactMap { _ in names.randomElement(using: &random) }
            let previous = index.save(
                name: name, recordType: type, offset: Int64(step), creationMillis: RecordEntry.noCreationDate,
                targets: CascadeTargets(targets))
            #expect(previous == model.entries[name]?.type)
            model.entries[name] = (type, Int64(step), targets)
        }
    }

    @Test(
        "random saves and deletes: the index answers as the model, read back from its snapshot, and changed after that",
        arguments: [1, 2, 3])
    func matchesModel(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        // Few names, so that names are saved again, deleted and reused often, and hash runs collide.
        let names = (0..<300).map { "r\($0)" } + ["a-name-longer-than-fifteen-bytes-\(seed)"]
        var index = KeyIndex()
        var model = Model()
        try randomSteps(0..<5_000, names: names, index: &index, model: &model, random: &random)
        expectAgreement(index, model, names: names)
        try await withStoreDirectory { directory in
            var restored = try roundTrip(index, in: directory)
            expectAgreement(restored, model, names: names)
            #expect(restored.liveRecordsByType == index.liveRecordsByType)
            // Changes to an index read in place: its arrays move to the heap, its free slots are reused.
            let more = names + (0..<100).map { "new-\($0)" }
            try randomSteps(5_000..<8_000, names: more, index: &restored, model: &model, random: &random)
            expectAgreement(restored, model, names: more)
            // Written over the file `restored` still reads in place: it is replaced, not changed.
            let again = try roundTrip(restored, in: directory)
            expectAgreement(again, model, names: more)
            #expect(again.liveRecordsByType == Dictionary(grouping: model.entries.values, by: \.type).mapValues(\.count))
        }
    }

    @Test("ids out of range in a snapshot whose CRCs hold (only a crafted file has them) read as absent records, never a crash")
    func outOfRangeIDs() async throws {
        var index = KeyIndex()
        for number in 0..<50 {
            index.save(
                name: "r\(number)", recordType: number % 2 == 0 ? "A" : "B", offset: Int64(number), creationMillis: 0,
                targets: CascadeTargets(single: "r\(number % 5)"))
        }
        index.entries[3].typeID = 99
        index.entries[4].target = 99
        var buckets = index.slots.buckets
        let filed = try #require(buckets.firstIndex { $0 != 0 && ![4, 5].contains($0 & 0xFFFF_FFFF) })
        let victimSlot = Int(buckets[filed] & 0xFFFF_FFFF) - 1
        buckets[filed] = buckets[filed] & 0xFFFF_FFFF_0000_0000 | 5_000
        index.slots = try #require(SlotTable(buckets: buckets, count: index.slots.count, seed: index.slots.seed))
        try await withStoreDirectory { directory in
            var read = try roundTrip(index, in: directory)
            #expect(read["r3"] == nil, "a type out of range")
            #expect(read["r\(victimSlot)"] == nil, "a bucket's slot out of range")
            #expect(read.delete(name: "r4") == "A", "a target out of range is not unlinked")
            #expect(Set(read.referrers(of: "r0")).isSubset(of: (0..<50).map { "r\($0)" }))
            read.save(name: "r4", recordType: "C", offset: 60, creationMillis: 0, targets: CascadeTargets(single: "r1"))
            #expect(read["r4"]?.offset == 60)
            #expect(read.names(ofType: "C") == ["r4"])
            #expect(read.referrers(of: "r1").contains("r4"))
        }
    }

    @Test("an entry is laid out as FORMAT.md §12.2 gives it, since snapshots hold entries as they lie in memory")
    func entryLayout() {
        #expect(MemoryLayout<RecordEntry>.size == 24 && MemoryLayout<RecordEntry>.stride == 24)
        #expect(MemoryLayout<RecordEntry>.offset(of: \.offset) == 0)
        #expect(MemoryLayout<RecordEntry>.offset(of: \.creationMillis) == 8)
        #expect(MemoryLayout<RecordEntry>.offset(of: \.typeID) == 16)
        #expect(MemoryLayout<RecordEntry>.offset(of: \.target) == 20)
    }
}
