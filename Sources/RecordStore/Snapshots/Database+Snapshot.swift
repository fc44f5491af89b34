import RecordLog

extension Database {
    var snapshotPath: String {
        directory + "/" + StateSnapshot.directoryName + "/" + StateSnapshot.fileName
    }

    /// Writes the key index checkpoint, so the next open replays only what follows it.
    /// `close()` does this too. A store unchanged since its last checkpoint (nothing written,
    /// no view registered whose snapshot is behind) rewrites nothing.
    public func checkpoint() throws {
        try checkOpen()
        try log.sync()
        let taken = try state.withLock { state -> (snapshot: StateSnapshot, positions: [String: CheckpointPosition], views: Set<String>)? in
            let positions = state.positions
            let views = Set(state.views.filter(\.keepsSnapshot).map(\.name))
            if state.checkpointed == positions, views.isSubset(of: state.currentViewSnapshots) { return nil }
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
