import Foundation
import Notes
import RecordStore

/// `--commit-cost`: the CPU one commit costs on our side alone, without fsync (durability
/// `.noSyncUnsafe`), with the Notes views live as in W2/W3. Not a workload against SQLite: a
/// diagnostic for the commit path, whose serialized CPU bounds W3 once group commit shares the
/// fsyncs.
enum CommitCost {
    /// `preload` records are saved first, in commits of 1000, so the commits are measured
    /// against a store of that size.
    static func run(directory: String, commits: Int, writers: [Int], preload: Int) async throws -> String {
        var lines: [String] = []
        for count in writers {
            let path = directory + "/commit-cost-\(count)"
            let database = try await Database(directory: path, durability: .noSyncUnsafe, maximumItemsPerRequest: 1000)
            let manager = try await RecordNotesManager(database: database)
            let ours = Ours(path: path, database: database, manager: manager)
            try await ours.saveFolders()
            for start in stride(from: 0, to: preload, by: 1000) {
                try await ours.saveCommit((start..<min(start + 1000, preload)).map(Dataset.row))
            }
            let rows = (preload..<(preload + commits)).map(Dataset.row)
            let seconds = try await Measure.seconds { try await ours.saveSingly(rows, writers: count) }
            try database.close()
            lines.append(String(format: "%2d writer(s), %d records before: %.1f µs per commit (%.0f commits/s without fsync)", count, preload, seconds * 1e6 / Double(commits), Double(commits) / seconds))
        }
        return lines.joined(separator: "\n")
    }
}
