import Foundation
import RecordStore

/// `--changes-cost DIR`: W4's fetch alone, repeated, for profiling: on a store that
/// `--replay-cost DIR` made, the changes since a token taken before the last `last` records,
/// into Notes as W4 fetches them, then as `Record` pages (unless `recordsToo` is false, for a
/// profile of W4's path alone).
enum ChangesCost {
    /// With `thrashBytes`, each round first writes that many bytes of other memory, as the peer's
    /// fetch between two of ours does in W4: the caches no longer hold what the last round read.
    static func run(directory: String, last: Int, rounds: Int, recordsToo: Bool, thrashBytes: Int = 0) async throws -> String {
        let ours = try await Ours.open(path: directory, viewsToo: false)
        defer { try? ours.close() }
        let everything = try await ours.database.fetchZoneChanges(in: Ours.zone, since: nil, desiredKeys: [])
        let skipped = try await ours.database.fetchZoneChanges(
            in: Ours.zone, since: nil, resultsLimit: everything.changedRecords.count - last, desiredKeys: [])
        var lines: [String] = []
        var other = [UInt8](repeating: 0, count: thrashBytes)
        for round in 1...max(1, rounds) {
            for index in stride(from: 0, to: other.count, by: 64) { other[index] &+= 1 }
            // W4's fetch (into Notes), then the same changes as `Record` pages.
            var count = 0, records = 0
            let faults = Measure.pageFaults()
            let seconds = try await Measure.seconds { count = try await ours.changes(since: skipped.changeToken) }
            let notesFaults = Measure.pageFaults() - faults
            let recordSeconds = recordsToo ? try await Measure.seconds { records = try await ours.changedRecords(since: skipped.changeToken) } : 0
            lines.append(String(
                format: "round %d: %d changes into Notes in %.2f ms (%.2f µs each, %d page faults); %d as Records in %.2f ms",
                round, count, seconds * 1000, seconds * 1e6 / Double(max(count, 1)), notesFaults, records, recordSeconds * 1000))
        }
        return lines.joined(separator: "\n")
    }
}
