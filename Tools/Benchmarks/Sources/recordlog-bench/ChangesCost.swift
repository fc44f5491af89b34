import Foundation
import RecordStore

/// `--changes-cost DIR`: W4's fetch alone, repeated, for profiling: on a store that
/// `--replay-cost DIR` made, the changes since a token taken before the last `last` records.
enum ChangesCost {
    static func run(directory: String, last: Int, rounds: Int) async throws -> String {
        let ours = try await Ours.open(path: directory, viewsToo: false)
        defer { try? ours.close() }
        let everything = try await ours.database.fetchZoneChanges(in: Ours.zone, since: nil, desiredKeys: [])
        let skipped = try await ours.database.fetchZoneChanges(
            in: Ours.zone, since: nil, resultsLimit: everything.changedRecords.count - last, desiredKeys: [])
        var lines: [String] = []
        for round in 1...max(1, rounds) {
            var count = 0
            let faults = Measure.pageFaults()
            let seconds = try await Measure.seconds { count = try await ours.changes(since: skipped.changeToken) }
            lines.append(String(
                format: "round %d: %d changes in %.2f ms (%.2f µs each), %d page faults", round, count, seconds * 1000,
                seconds * 1e6 / Double(max(count, 1)), Measure.pageFaults() - faults))
        }
        return lines.joined(separator: "\n")
    }
}
