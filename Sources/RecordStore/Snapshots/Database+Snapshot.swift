import RecordLog

extension Database {
    var snapshotPath: String {
        directory + "/" + StateSnapshot.directoryName + "/" + StateSnapshot.fileName
    }

    /// Writes the key index checkpoint, so the next open replays only what follows it.
    /// `close()` does this too.
    public func checkpoint() throws {
        try checkOpen()
        try log.sync()
        let snapshot = try state.withLock { state in
            try snapshotViews(state)
            return StateSnapshot(
                storeID: storeID,
                zones: state.zones.values.map { zone in
                    StateSnapshot.Zone(
                        name: zone.zoneID.zoneName, incarnation: zone.incarnation, coveredOffset: zone.partition.endOffset,
                        records: zone.records.tables)
                })
        }
        try DurableFile.write(snapshot.encoded(), to: snapshotPath)
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
