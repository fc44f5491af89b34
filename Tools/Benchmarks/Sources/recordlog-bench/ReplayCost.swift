import Foundation
import Notes
import RecordStore

/// `--replay-cost DIR`: W5's replay alone, repeated on one kept store, for profiling. Fills `DIR`
/// with `records` notes first when it holds no store (commits of 1000, then `singles` commits of one, without fsync), then
/// rebuilds the Notes view from the log `rounds` times and prints the rate of each round.
enum ReplayCost {
    static func run(directory: String, records: Int, singles: Int, rounds: Int) async throws -> String {
        if !FileManager.default.fileExists(atPath: directory) {
            let database = try await Database(directory: directory, durability: .noSyncUnsafe, maximumItemsPerRequest: 1000)
            let ours = Ours(path: directory, database: database, manager: nil)
            _ = try await database.createZone(Ours.zone)
            try await ours.saveFolders()
            for start in stride(from: 0, to: records, by: 1000) {
                try await ours.saveCommit((start..<min(start + 1000, records)).map(Dataset.row))
            }
            // As the full run's W2 and W3 leave it: single-record commits after the batches.
            try await ours.saveSingly((records..<(records + singles)).map(Dataset.row), writers: 1)
            try database.close()
        }
        let ours = try await Ours.open(path: directory, viewsToo: false)
        defer { try? ours.close() }
        var lines: [String] = []
        for round in 1...max(1, rounds) {
            var replayed = 0
            let seconds = try await Measure.seconds { replayed = try ours.replay() }
            lines.append(String(format: "round %d: %d notes in %.0f ms, %.0f records/s", round, replayed, seconds * 1000, Double(replayed) / seconds))
        }
        return lines.joined(separator: "\n")
    }
}
