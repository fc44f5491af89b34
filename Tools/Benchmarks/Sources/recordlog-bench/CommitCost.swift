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
            var cpu = 0.0
            let seconds = try await Measure.seconds { cpu = try await Measure.cpuSeconds { try await ours.saveSingly(rows, writers: count) } }
            try database.close()
            lines.append(String(format: "%2d writer(s), %d records before: %.1f µs per commit (%.0f commits/s without fsync), %.1f µs CPU per commit", count, preload, seconds * 1e6 / Double(commits), Double(commits) / seconds, cpu * 1e6 / Double(commits)))
        }
        return lines.joined(separator: "\n")
    }

    /// `--batch-cost [--no-views] [--fsync]`: W1's path alone, the CPU of saving `records`
    /// records in commits of 1000 without fsync (with `--fsync`, durable as in W1), per record;
    /// with the Notes views live, or (`--no-views`) the database alone. Rows are made before the
    /// timing, as in W1.
    static func batches(directory: String, records: Int, views: Bool, durable: Bool = false) async throws -> String {
        let path = directory + "/batch-cost"
        let database = try await Database(
            directory: path, durability: durable ? .fsync : .noSyncUnsafe, maximumItemsPerRequest: 1000)
        defer { try? database.close() }
        let manager = views ? try await RecordNotesManager(database: database) : nil
        if !views { _ = try await database.createZone(Ours.zone) }
        let ours = Ours(path: path, database: database, manager: manager)
        try await ours.saveFolders()
        let commits = stride(from: 0, to: records, by: 1000).map { start in (start..<min(start + 1000, records)).map(Dataset.row) }
        var seconds = 0.0
        var cpu = 0.0
        // Timed as one stretch, ending once the views have folded the last commit: a large
        // commit's fold runs while the next commit is made.
        seconds = try await Measure.seconds {
            cpu = try await Measure.cpuSeconds {
                for rows in commits { try await ours.saveCommit(rows) }
                await ours.viewsCaughtUp()
            }
        }
        return String(format: "%d records in commits of 1000, %@: %.2f µs per record (%.0f records/s %@), %.2f µs CPU per record",
            records, views ? "Notes views live" : "no views", seconds * 1e6 / Double(records), Double(records) / seconds,
            durable ? "with an fdatasync per commit" : "without fsync", cpu * 1e6 / Double(records))
    }
}
