@testable import RecordStore
import Testing
import TestSupport

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

    @Test("random saves and deletes: the index answers as the model, before and after restoring its tables", arguments: [1, 2, 3])
    func matchesModel(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        // Few names, so that names are saved again, deleted and reused often, and hash runs collide.
        let names = (0..<300).map { "r\($0)" }
        var index = KeyIndex()
        var model = Model()
        for step in 0..<5_000 {
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
        expectAgreement(index, model, names: names)
        let restored = try #require(KeyIndex(restoring: index.tables))
        expectAgreement(restored, model, names: names)
    }
}
