import TestSupport
import RecordStore

/// The harness's workload: an endless, seeded sequence of commits of every kind the public API
/// offers — single saves, large batches, edits with change tags, deletes, zone creation and
/// deletion, checkpoints, compactions — and now and then a record large enough to roll a small
/// segment (compaction rewrites only sealed segments).
///
/// Step `i` depends only on the seed, `i` and the model before it, so a parent process that knows
/// how many steps its child acknowledged recomputes the expected state without asking it.
package struct Workload: Sendable {
    package let seed: UInt64

    /// The zones besides the default one that steps create and delete.
    package static let zoneNames = ["Alpha", "Beta", "Gamma"]

    package init(seed: UInt64) {
        self.seed = seed
    }

    /// The model after the first `count` steps.
    package func model(after count: Int) -> StoreModel {
        model(from: StoreModel(), steps: 0..<count)
    }

    /// `model` advanced by `steps`.
    package func model(from model: StoreModel, steps: Range<Int>) -> StoreModel {
        var model = model
        for index in steps { model.apply(step(index, after: model)) }
        return model
    }

    /// The step at `index`, given the model before it.
    package func step(_ index: Int, after model: StoreModel) -> WorkloadStep {
        var random = SeededGenerator(seed: seed ^ (UInt64(index) &+ 1) &* 0xD6E8_FEB8_6659_FD93)
        let zones = model.zones.keys.sorted()
        let zone = zones.randomElement(using: &random) ?? ZoneID.default.zoneName
        let records = (model.zones[zone] ?? [:]).keys.sorted()
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<15:
            let count = Int.random(in: 10...150, using: &random)
            var items: [String: StoreModel.Item] = [:]
            for item in 0..<count { items["r\(index)-\(item)"] = Self.item(index, length: Int.random(in: 0...80, using: &random), &random) }
            return .save(zone: zone, items: items)
        case 15..<35 where !records.isEmpty:
            let name = records.randomElement(using: &random) ?? records[0]
            return .edit(zone: zone, name: name, item: Self.item(index, length: Int.random(in: 0...400, using: &random), &random))
        case 35..<47 where !records.isEmpty:
            let count = min(records.count, Int.random(in: 1...5, using: &random))
            return .delete(zone: zone, names: Array(records.shuffled(using: &random).prefix(count)).sorted())
        case 47..<53:
            let absent = Self.zoneNames.filter { model.zones[$0] == nil }
            if let name = absent.randomElement(using: &random) { return .createZone(name) }
        case 53..<56:
            let present = Self.zoneNames.filter { model.zones[$0] != nil }
            if let name = present.randomElement(using: &random) { return .deleteZone(name) }
        case 56..<59:
            return .checkpoint
        case 59..<61:
            return .save(zone: zone, items: ["r\(index)-big": Self.item(index, length: 100_000, &random)])
        case 61..<63:
            return .compact(zone: zone)
        default:
            break
        }
        return .save(zone: zone, items: ["r\(index)": Self.item(index, length: Int.random(in: 0...400, using: &random), &random)])
    }

    /// A record's fields: its step and `length` characters of text (compressible, as notes are).
    private static func item(_ index: Int, length: Int, _ random: inout SeededGenerator) -> StoreModel.Item {
        let words = ["milk", "report", "Anna", "call", "ünïcödé", "tomorrow", "12", "—", "notes", "sync"]
        var text = ""
        while text.utf8.count < length { text += (words.randomElement(using: &random) ?? "x") + " " }
        return StoreModel.Item(step: Int64(index), text: text)
    }
}
