import Foundation
import Notes
import RecordStore
import RecordSync

/// `--sync-cost [--records N]`: the Sync issue's benchmark. A remote store of N notes (commits
/// of 1000); then, in this one process:
/// - **the limit**: the remote store opened afresh and every note read from it, page by page as
///   a sync reads them (`fetchZoneChanges`, 1000 a page) — what reading the same notes from the
///   remote's own log costs;
/// - **initial sync**: an empty device store fetching everything through a `SyncEngine` (pages of
///   1000, each one durable local commit with its token);
/// - **incremental**: one note changed on the remote, then fetched by the device; and one note
///   changed on the device, then sent (median of several rounds each).
/// Prints each time and the initial sync's ratio to the limit.
enum SyncCost {
    static func run(directory: String, records: Int, rounds: Int = 9) async throws -> String {
        let remotePath = directory + "/remote"
        let devicePath = directory + "/device"
        let remote = try await Database(directory: remotePath, durability: .noSyncUnsafe, maximumItemsPerRequest: 1000)
        let ours = Ours(path: remotePath, database: remote, manager: nil)
        _ = try await remote.createZone(Ours.zone)
        try await ours.saveFolders()
        for start in stride(from: 0, to: records, by: 1000) {
            try await ours.saveCommit((start..<min(start + 1000, records)).map(Dataset.row))
        }
        try remote.close()

        var read = 0
        let limit = try await Measure.seconds {
            let reopened = try await Database(directory: remotePath)
            var token: ServerChangeToken?
            repeat {
                let page = try await reopened.fetchZoneChanges(in: Ours.zone, since: token, resultsLimit: 1000)
                read += page.changedRecords.count
                token = page.moreComing ? page.changeToken : nil
            } while token != nil
            try reopened.close()
        }

        let server = try await Database(directory: remotePath)
        let device = try await Database(directory: devicePath)
        let engine = SyncEngine(local: device, remote: server, configuration: .init(automaticallySync: false, resultsLimit: 1000))
        let initial = try await Measure.seconds { try await engine.fetchChanges() }
        let synced = try await device.fetchZoneChanges(in: Ours.zone, since: nil, resultsLimit: 0).changedRecords
            .filter { !$0.recordID.recordName.hasPrefix("_") }.count

        var pulls: [Double] = []
        var pushes: [Double] = []
        for round in 0..<rounds {
            let name = Dataset.row(round).name
            var there = try await server.record(for: RecordID(recordName: name, zoneID: Ours.zone))
            there["content"] = .string("changed on the remote, round \(round)")
            _ = try await server.save(there)
            pulls.append(try await Measure.seconds { try await engine.fetchChanges() })
            var here = try await device.record(for: RecordID(recordName: Dataset.row(rounds + round).name, zoneID: Ours.zone))
            here["content"] = .string("changed on the device, round \(round)")
            _ = try await device.save(here)
            pushes.append(try await Measure.seconds { try await engine.sendChanges() })
        }
        await engine.stop()
        try device.close()
        try server.close()
        let millisecond = { (seconds: Double) in String(format: "%.1f ms", seconds * 1000) }
        return [
            "sync of \(records) notes (\(read) records read by the limit, \(synced) synced)",
            String(format: "limit: the remote's own read  %8.0f ms  %9.0f records/s", limit * 1000, Double(read) / limit),
            String(format: "initial sync into a device    %8.0f ms  %9.0f records/s   ratio %.2f (limit / sync; 1 = as fast as the limit)",
                initial * 1000, Double(synced) / initial, limit / initial),
            "incremental: one remote change fetched: median \(millisecond(Measure.median(pulls))); one local change sent: median \(millisecond(Measure.median(pushes)))",
        ].joined(separator: "\n")
    }
}
