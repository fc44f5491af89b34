import RecordLog

extension Database {
    /// Creates a zone; saving a zone that exists returns it unchanged (as CloudKit does).
    ///
    /// - Throws: `invalidArguments` for a bad zone name.
    @discardableResult
    public func createZone(_ zoneID: ZoneID) async throws -> ZoneID {
        try checkOpen()
        try zoneID.validate()
        let name = try Self.partitionName(zoneID)
        return try await administration.run { try await createZoneAlone(zoneID, name: name) }
    }

    private func createZoneAlone(_ zoneID: ZoneID, name: String) async throws -> ZoneID {
        let pending = try state.withLock { state -> PendingAppend? in
            if state.zones[zoneID] != nil { return nil }
            var batch = RecordBatchBuilder()
            batch.append(key: name, value: [], headers: StoredEvent.headers(.createZone))
            return try system.appendWithoutWaiting(batch.encode())
        }
        guard let pending else { return zoneID }
        // The event is durable before the zone's directory exists: a crash in between leaves a
        // registered zone without files (created, empty, by the next open), never files that the
        // system log does not account for.
        try await pending.durable()
        try state.withLock { state in
            let partition = try log.createPartition(named: name)
            state.zones[zoneID] = ZoneState(zoneID: zoneID, partition: partition, incarnation: pending.offsets.lowerBound)
        }
        subscriptions.publishZoneChange(zoneID, deleted: false)
        return zoneID
    }

    /// Deletes a zone and every record in it.
    ///
    /// - Throws: `zoneNotFound`; `invalidArguments` for the default zone, which cannot be deleted.
    public func deleteZone(_ zoneID: ZoneID) async throws {
        try checkOpen()
        guard !zoneID.isDefault else {
            throw RecordStoreError(.invalidArguments, "The default zone cannot be deleted; delete its records instead.", zoneID: zoneID)
        }
        let name = try Self.partitionName(zoneID)
        try await administration.run { try await deleteZoneAlone(zoneID, name: name) }
    }

    private func deleteZoneAlone(_ zoneID: ZoneID, name: String) async throws {
        let pending = try state.withLock { state -> PendingAppend in
            guard state.zones[zoneID] != nil else { throw RecordStoreError.zoneNotFound(zoneID) }
            var batch = RecordBatchBuilder()
            batch.append(key: name, value: nil, headers: StoredEvent.headers(.deleteZone))
            let pending = try system.appendWithoutWaiting(batch.encode())
            state.zones[zoneID] = nil
            for view in state.views { _ = view.fold(.listed([.zoneDeleted(zoneID)]), false) }
            return pending
        }
        try await pending.durable()
        // The deletion is durable; now the files. A crash before this point leaves a partition
        // that the next open removes, because the system log says the zone is gone.
        try log.deletePartition(named: name)
        subscriptions.publishZoneChange(zoneID, deleted: true)
    }

    /// Every zone, the default zone included, sorted by name.
    public func allZones() async throws -> [ZoneID] {
        try checkOpen()
        try await refreshBeforeRead()
        return state.withLock { $0.zones.keys.sorted { $0.zoneName < $1.zoneName } }
    }

    /// Whether the zone exists.
    ///
    /// - Throws: `zoneNotFound` when it does not.
    public func fetchZone(_ zoneID: ZoneID) async throws -> ZoneID {
        try checkOpen()
        try await refreshBeforeRead()
        guard state.withLock({ $0.zones[zoneID] != nil }) else { throw RecordStoreError.zoneNotFound(zoneID) }
        return zoneID
    }

    /// Replays the system log for the live zones, reconciles the partitions with it (removing
    /// only the files of zones it deleted), and replays every zone's partition.
    ///
    /// - Throws: `internalError` when the system log creates a zone whose name breaks the rules:
    ///   the zones are checked here, once, and their records are then read without checking the
    ///   zone again.
    /// `checkpoint`: the key index checkpoint being read beside the log's open, if it is.
    func loadZones(checkpoint: CheckpointPrefetch? = nil) async throws -> OpenReport {
        var report = OpenReport()
        let registry = try ZoneRegistry(system: system)
        var live = registry.live
        if live[RecordLimits.defaultZoneName] == nil, !isReadOnly {
            var batch = RecordBatchBuilder()
            batch.append(key: RecordLimits.defaultZoneName, value: [], headers: StoredEvent.headers(.createZone))
            live[RecordLimits.defaultZoneName] = try await system.append(batch).lowerBound
        }
        // A zone deleted in the system log whose files survived a crash (the writer removes them).
        for name in registry.deletedButPresent(partitions: log.partitionNames) where !isReadOnly {
            try log.deletePartition(named: name)
        }
        report.unregisteredZones = registry.unregistered(partitions: log.partitionNames).filter { live[$0] == nil }
        for name in report.unregisteredZones {
            logger.warning(
                "a zone's files are in the store but the system log does not register the zone; they are kept, not served",
                metadata: ["zone": "\(name)"])
        }
        var snapshot = await loadSnapshot(prefetched: checkpoint)
        let covered = snapshot.mapValues(\.covered)
        var zones: [ZoneID: ZoneState] = [:]
        let present = Set(log.partitionNames)
        for (name, incarnation) in live {
            let zoneID = ZoneID(zoneName: name)
            // A reader cannot create a registered zone's directory; until its writer has, the zone
            // is not served (`refresh()` looks again).
            if isReadOnly, !present.contains(name) { continue }
            let partition = isReadOnly ? try log.partition(named: name) : try log.createPartition(named: name)
            var zone = ZoneState(zoneID: zoneID, partition: partition, incarnation: incarnation)
            var from = zone.partition.startOffset
            let end = zone.partition.endOffset
            // A checkpoint of this incarnation that covers no more than the log holds, and no
            // less than compaction kept every delete of: start from it (FORMAT.md §11.1).
            if var saved = snapshot.removeValue(forKey: name), saved.covered.incarnation == incarnation,
                saved.covered.offset >= zone.partition.expiryOffset, saved.covered.offset <= zone.partition.endOffset
            {
                // Swapped out, not copied: a copy left with the snapshot would make the tail's
                // first write copy every array of the index to the heap.
                swap(&zone.records, &saved.records)
                zone.clientToken = saved.clientToken
                zone.deleted = saved.deleted
                from = max(saved.covered.offset, from)
                report.zonesFromSnapshot += 1
                // Nothing the checkpoint covers was replaced or deleted when each of its offsets
                // created one of its live records: a replaced version, a delete or a gap left by
                // a compaction is an offset without a live record of its own.
                zone.mayHoldReplacedEvents = Int64(zone.records.count) != saved.covered.offset - zone.partition.startOffset
            } else {
                // Replayed from the log's start: the state sees every event it holds.
                zone.mayHoldReplacedEvents = false
            }
            try zone.partition.forEachRecordInPlace(from: from, to: end, cached: false) { event in
                try zone.apply(event)
                report.replayedEvents += 1
                return true
            }
            zone.replayedEnd = end
            // A checkpoint's deletes that a compaction dropped since, and those below the expiry
            // offset a replay met (rule 6 kept them), are forgotten as a compaction forgets them.
            zone.deleted.forgetDropped(below: zone.partition.expiryOffset)
            zones[zoneID] = zone
        }
        state.withLock { state in
            state.zones = zones
            state.systemReplayedEnd = system.endOffset
            // The checkpoint on disk is the basis of this open when it covers every zone as it
            // is now, up to its end or to an offset before it (a tail replayed above): a close
            // then rewrites it only once enough has been appended since (`checkpointAfterEvents`).
            state.checkpointed = Self.eventsAppended(since: covered, to: state.positions) != nil ? covered : nil
        }
        return report
    }

    /// The zone's state, or `zoneNotFound`.
    func zone(_ zoneID: ZoneID) throws(RecordStoreError) -> ZoneState {
        guard let zone = state.withLock({ $0.zones[zoneID] }) else { throw RecordStoreError.zoneNotFound(zoneID) }
        return zone
    }
}
