import Foundation
import RecordLog

extension ReplayStore {
    /// Writes a new store at `directory` holding this store's log up to `point`, at the same
    /// offsets and with the same timestamps, headers and commit (batch) boundaries — a commit cut
    /// by the point keeps its part before it. `Database(directory:)` and the notes app open it.
    ///
    /// - `.zoneOffset(Z, N)`: zone Z holds its events < N; the other zones and the system
    ///   partition are copied whole, as they are now.
    /// - `.time(T)`: the system partition and every zone hold their events stamped ≤ T; a zone
    ///   created after T is left out.
    ///
    /// The indexes, checkpoints and snapshots are not copied: the library rebuilds them.
    ///
    /// ```swift
    /// let summary = try await store.export(at: .zoneOffset(zone: "Notes", offset: 12), to: "/tmp/repro")
    /// let database = try await Database(directory: summary.directory)
    /// ```
    ///
    /// - Throws: `outputExists` unless `directory` is missing or an empty directory;
    ///   `beforeStoreCreation`, `zoneNotFromZero`, the errors of `plan(zone:at:)`, `writeFailed`.
    public func export(at point: StorePoint, to directory: String, progress: ReplayProgressHandler? = nil) async throws(ReplayError) -> ExportSummary {
        try Self.checkEmpty(directory)
        let summary = try exportPlan(at: point, directory: directory)
        for cut in summary.cuts where cut.start != 0 { throw ReplayError.zoneNotFromZero(zone: cut.zone, start: cut.start) }
        let target: Log
        do {
            target = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
        } catch {
            throw ReplayError.writeFailed(path: directory, reason: "\(error)")
        }
        let tracker = ProgressTracker(total: summary.cuts.reduce(0) { $0 + $1.eventCount }, handler: progress)
        do {
            for cut in summary.cuts {
                let copier = LogCopier(source: try log.partition(named: cut.zone), target: try target.createPartition(named: cut.zone), end: cut.end)
                try await copier.copy(progress: tracker)
            }
            try target.sync()
            try target.close()
        } catch {
            try? target.close()
            if let error = error as? ReplayError { throw error }
            throw ReplayError.writeFailed(path: directory, reason: "\(error)")
        }
        tracker.finish()
        return summary
    }

    /// The cuts of an export, system partition first.
    private func exportPlan(at point: StorePoint, directory: String) throws(ReplayError) -> ExportSummary {
        var cuts: [ZoneCut] = []
        let plan: ReplayPlan
        switch point {
        case .zoneOffset(let zone, let offset):
            plan = try self.plan(zone: zone, at: .offset(offset))
            for name in zones {
                if let planned = plan.cuts.first(where: { $0.zone == name }) {
                    cuts.append(planned)
                } else {
                    cuts.append(cut(try partition(name)))
                }
            }
            if let system { cuts.insert(cut(system), at: 0) }
        case .time(let time):
            plan = try self.plan(zone: nil, at: .time(time))
            cuts = plan.cuts
            if let system {
                let end = try offset(after: time, in: system)
                guard end > system.startOffset else {
                    throw ReplayError.beforeStoreCreation(time: time, firstEvent: system.firstTimestamp ?? time)
                }
                cuts.insert(cut(system, at: end), at: 0)
            }
        }
        return ExportSummary(directory: directory, cuts: cuts, warnings: plan.warnings)
    }

    /// Refuses anything at `directory` but an empty directory.
    private static func checkEmpty(_ directory: String) throws(ReplayError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [""]
        guard isDirectory.boolValue, contents.isEmpty else { throw ReplayError.outputExists(directory) }
    }
}
