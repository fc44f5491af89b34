import Foundation
import Notes
import RecordStore

/// `--commit-cost`: the CPU one commit costs on our side alone, without fsync (durability
/// `.noSyncUnsafe`), with the Notes views live as in W2/W3. Not a workload against SQLite: a
/// diagnostic for the commit path, whose serialized CPU bounds W3 once group commit shares the
/// fsyncs.
enum CommitCost {
    static func run(directory: String, commits: Int, writers: [Int]) async throws -> String {
        var lines: [String] = []
        for count in writers {
            let path = directory + "/commit-cost-\(count)"
            let database = try await Database(directory: path, durability: .noSyncUnsafe, maximumItemsPerRequest: 1000)
            let manager = try await RecordNotesManager(database: database)
            let ours = Ours(path: path, database: database, manager: manager)
            try await ours.saveFolders()
            let rows = (0..<commits).map(Dataset.row)
            let seconds = try await Measure.seconds { try await ours.saveSingly(rows, writers: count) }
            try database.close()
            lines.append(String(format: "%2d writer(s): %.1f µs per commit (%.0f commits/s without fsync)", count, seconds * 1e6 / Double(commits), Double(commits) / seconds))
        }
        return lines.joined(separator: "\n")
    }
}
