import Foundation
import RecordLog

extension Database {
    /// Where the key index checkpoint lives; nil for an in-memory database, which keeps none.
    var snapshotPath: String? {
        directory.map { Self.checkpointPath(directory: $0) }
    }

    /// Removes the checkpoint and the views' snapshots of the store in `directory`, so that the
    /// next open replays the whole log: for a mirror whose log was cut back or replaced under
    /// a checkpoint that may cover what it no longer holds.
    package static func discardCheckpoints(directory: String) throws {
        let path = directory + "/" + KeyIndexSnapshot.directoryName
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Where the key index checkpoint of the store in `directory` lives.
    static func checkpointPath(directory: String) -> String {
        directory + "/" + KeyIndexSnapshot.directoryName + "/" + KeyIndexSnapshot.fileName
    }

    /// Writes the key index checkpoint and the registered views' snapshots, so the next open
    /// replays only what follows them. `close()` does this too, once enough has changed
    /// (``checkpointAfterEvents``). A store unchanged since its last checkpoint (nothing written,
    /// no view registered whose snapshot is behind) rewrites nothing.
    public func checkpoint() throws {
        try checkpoint(unlessTailBelow: 0)
    }

    /// Writes the checkpoint unless the one on disk (the key index's and every registered view's)
    /// covers every zone as it is now but for fewer than `minimumTail` events appended since.
    func checkpoint(unlessTailBelow minimumTail: Int64) throws {
        try checkOpen()
        // A reader writes nothing: the checkpoint is its writer's to keep.
        guard !isReadOnly else { return }
        // An in-memory database has nowhere to keep a checkpoint, and no later open to read one.
        guard let directory, let snapshotPath else { return }
        try log.sync()
        // Deletes a background compaction dropped since are not written.
        forgetDroppedDeletes(in: state.withLock { Array($0.zones.keys) })
        // One checkpoint at a time, so that an older one never replaces a newer one's files.
        try checkpointing.withLock { _ in
            // Under the lock, only copies are taken (copy-on-write: a commit after this copies
            // what it changes); the files are written after it is released, while commits go on.
            let taken = state.withLock { state -> TakenCheckpoint? in
                let positions = state.positions
                let views = Set(state.views.filter(\.keepsSnapshot).map(\.name))
                if let checkpointed = state.checkpointed, views.isSubset(of: state.currentViewSnapshots),
                    let tail = Self.eventsAppended(since: checkpointed, to: positions), tail < max(1, minimumTail)
                {
                    return nil
                }
                return TakenCheckpoint(
                    positions: positions, views: views, viewWrites: state.views.filter(\.keepsSnapshot).map { $0.takeSnapshot() },
                    zones: state.zones.values.map { ($0.zoneID.zoneName, $0.incarnation, $0.partition.endOffset, $0.records) },
                    clientTokens: state.zones.values.reduce(into: [:]) { tokens, zone in tokens[zone.zoneID.zoneName] = zone.clientToken },
                    deleted: state.zones.values.reduce(into: [:]) { deleted, zone in deleted[zone.zoneID.zoneName] = zone.deleted })
            }
            guard let taken else { return }
            let zones = taken.zones.map { (name: $0.name, incarnation: $0.incarnation, offset: $0.offset) }
            for write in taken.viewWrites { try write(directory, storeID, zones) }
            try KeyIndexSnapshot.write(taken.zones, clientTokens: taken.clientTokens, deleted: taken.deleted, storeID: storeID, to: snapshotPath)
            try? FileManager.default.removeItem(atPath: directory + "/" + KeyIndexSnapshot.directoryName + "/" + KeyIndexSnapshot.formerFileName)
            state.withLock { state in
                state.checkpointed = taken.positions
                state.currentViewSnapshots = taken.views
            }
        }
    }

    /// What a checkpoint takes under the database's lock, to write after it.
    private struct TakenCheckpoint {
        var positions: [String: ZonePosition]
        var views: Set<String>
        var viewWrites: [SnapshotWrite]
        var zones: [(name: String, incarnation: Int64, offset: Int64, records: KeyIndex)]
        var clientTokens: [String: ClientChangeTokenMark]
        var deleted: [String: DeletedNames]
    }

    /// How many events the zones gained from `checkpointed` to `positions`; nil when a zone was
    /// created, deleted or recreated in between (the checkpoint then no longer fits).
    static func eventsAppended(since checkpointed: [String: ZonePosition], to positions: [String: ZonePosition]) -> Int64? {
        guard Set(checkpointed.keys) == Set(positions.keys) else { return nil }
        var total: Int64 = 0
        for (zone, now) in positions {
            guard let then = checkpointed[zone], then.incarnation == now.incarnation, then.offset <= now.offset else { return nil }
            total += now.offset - then.offset
        }
        return total
    }

    /// The checkpointed zones of this store, by name, as `prefetched` read them while the log
    /// opened when it could (``CheckpointPrefetch/take()``); empty when there is no usable
    /// snapshot.
    func loadSnapshot(prefetched: CheckpointPrefetch?) async -> [String: KeyIndexSnapshot.Zone] {
        if let read = await prefetched?.take(), read.storeID == storeID { return read.zones }
        return loadSnapshot()
    }

    /// The checkpointed zones of this store, by name; empty when there is no usable snapshot.
    func loadSnapshot() -> [String: KeyIndexSnapshot.Zone] {
        guard let path = snapshotPath else { return [:] }
        let snapshot = KeyIndexSnapshot.read(path: path) { reason in
            logger.warning("ignoring the key index snapshot: \(reason); the zones are replayed from the log", metadata: ["path": "\(path)"])
        }
        guard let snapshot else { return [:] }
        guard snapshot.storeID == storeID else {
            logger.warning("ignoring a key index snapshot of another store", metadata: ["path": "\(path)"])
            return [:]
        }
        return snapshot.zones
    }
}
