import RecordStore

/// What a store should hold after a prefix of a workload: the expected-state oracle's value.
///
/// Zones by name, each a map from record name to the record's fields. The default zone is
/// always there; a deleted zone is absent.
package struct StoreModel: Equatable, Sendable {
    /// A harness record's fields: the step that wrote it and a text of the step's choosing.
    package struct Item: Equatable, Sendable, Codable {
        package var step: Int64
        package var text: String

        package init(step: Int64, text: String) {
            self.step = step
            self.text = text
        }
    }

    package var zones: [String: [String: Item]]

    /// An empty store: the default zone and nothing in it.
    package init() {
        zones = [ZoneID.default.zoneName: [:]]
    }

    package init(zones: [String: [String: Item]]) {
        self.zones = zones
    }

    /// The record type every harness record has.
    package static let recordType = "Item"

    /// The model after `step`.
    package mutating func apply(_ step: WorkloadStep) {
        switch step {
        case .save(let zone, let items):
            zones[zone, default: [:]].merge(items) { _, new in new }
        case .edit(let zone, let name, let item):
            zones[zone]?[name] = item
        case .delete(let zone, let names):
            for name in names { zones[zone]?[name] = nil }
        case .createZone(let zone):
            if zones[zone] == nil { zones[zone] = [:] }
        case .deleteZone(let zone):
            zones[zone] = nil
        case .checkpoint, .compact:
            break
        }
    }

    /// A short account of how `other` differs from this model, for a failure message.
    package func differences(from other: StoreModel) -> String {
        var lines: [String] = []
        for zone in Set(zones.keys).union(other.zones.keys).sorted() {
            guard let mine = zones[zone] else { lines.append("zone \(zone): not expected, present"); continue }
            guard let theirs = other.zones[zone] else { lines.append("zone \(zone): expected, missing"); continue }
            let missing = Set(mine.keys).subtracting(theirs.keys)
            let extra = Set(theirs.keys).subtracting(mine.keys)
            let changed = mine.keys.filter { theirs[$0] != nil && theirs[$0] != mine[$0] }
            if !missing.isEmpty { lines.append("zone \(zone): missing \(missing.sorted().prefix(5)) (\(missing.count))") }
            if !extra.isEmpty { lines.append("zone \(zone): unexpected \(extra.sorted().prefix(5)) (\(extra.count))") }
            if !changed.isEmpty { lines.append("zone \(zone): different \(changed.sorted().prefix(5)) (\(changed.count))") }
        }
        return lines.isEmpty ? "no difference" : lines.joined(separator: "; ")
    }
}
