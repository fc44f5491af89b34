import RecordLog

extension Database {
    var snapshotPath: String {
        directory + "/" + StateSnapshot.directoryName + "/" + StateSnapshot.fileName
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
        try log.sync()
        let taken = try state.withLock { state -> (snapshot: StateSnapshot, positions: [String: CheckpointPosition], views: Set<String>)? in
            let positions = state.positions
            let views = Set(state.views.filter(\.keepsSnapshot).map(\.name))
            if let checkpointed = state.checkpointed, views.isSubset(of: state.currentViewSnapshots),
                let tail = Self.eventsAppended(since: checkpointed, to: positions), tail < max(1, minimumTail)
            {
                return nil
            }
            try snapshotViews(state)
            let snapshot = StateSnapshot(
                storeID: storeID,
                zones: state.zones.values.map { zone in
                    StateSnapshot.Zone(
                        name: zone.zoneID.zoneName, incarnation: zone.incarnation, coveredOffset: zone.partition.endOffset,
                        records: zone.records.tables)
                })
            return (snapshot, positions, views)
        }
        guard let taken else { return }
        try DurableFile.write(taken.snapshot.encoded(), to: snapshotPath)
        state.withLock { state in
            state.checkpointed = taken.positions
            state.currentViewSnapshots = taken.views
        }
    }

    /// How many events the zones gained from `checkpointed` to `positions`; nil when a zone was
    /// created, deleted or recreated in between (the checkpoint then no longer fits).
    static func eventsAppended(since checkpointed: [String: CheckpointPosition], to positions: [String: CheckpointPosition]) -> Int64? {
        guard Set(checkpointed.keys) == Set(positions.keys) else { return nil }
        var total: Int64 = 0
        for (zone, now) in positions {
            guard let then = checkpointed[zone], then.incarnation == now.incarnation, then.offset <= now.offset else { return nil }
            total += now.offset - then.offset
        }
        return total
    }

    /// The checkpointed zones of this store, by name; empty when there is no usable snapshot.
    func loadSnapshot() -> [String: StateSnapshot.Zone] {
        guard let bytes = try? DurableFile.read(snapshotPath), let snapshot = StateSnapshot(bytes: bytes) else {
            return [:]
        }
        guard snapshot.storeID == storeID else {
            logger.warning("ignoring a key index snapshot of another store", metadata: ["path": "\(snapshotPath)"])
            return [:]
        }
        return Dictionary(snapshot.zones.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
