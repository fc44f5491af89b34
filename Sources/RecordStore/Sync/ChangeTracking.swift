import Foundation

extension Database {
    /// Step 1 of an app's commit to a synced zone (one holding ``SyncRecords/zoneStateName``):
    /// adds to the plan, for every record it saves or deletes (cascaded deletes included), that
    /// record's pending change (``PendingChange``) folded into the one already pending. The
    /// markers are ordinary saves of system records in the same batch: the commit and its outbox
    /// entries are durable together or not at all, whichever process writes.
    func trackChanges(_ commit: inout ZoneCommit, zones: [ZoneID: ZoneState], now: Date) throws {
        // Asked in place first: a copy of the zone's state retained and released each of its
        // tables, on every commit to a zone that is not synced.
        guard !commit.plan.isEmpty, zones[commit.plan.zoneID]?.isSynced == true, let zone = zones[commit.plan.zoneID] else { return }
        var changes: [PendingChange] = []
        changes.reserveCapacity(commit.plan.saves.count + commit.plan.deletes.count)
        for save in commit.plan.saves where !SyncRecords.isSystemName(save.record.recordID.recordName) {
            let name = save.record.recordID.recordName
            let pending = try zone.pendingChange(for: name) ?? PendingChange(recordName: name, isDelete: false, changedKeys: [])
            changes.append(pending.followed(bySavingKeys: save.record.changedKeys(), allKeys: save.record.allKeys()))
        }
        for delete in commit.plan.deletes where !SyncRecords.isSystemName(delete.name) {
            changes.append(PendingChange(recordName: delete.name, isDelete: true, changedKeys: []))
        }
        for change in changes {
            var record = change.record(in: commit.plan.zoneID)
            record.creationDate = now
            record.modificationDate = now
            let name = record.recordID.recordName
            let hash = zone.records.hash(name)
            let live = zone.records[name, hash: hash]
            commit.plan.saves.append(
                ZonePlan.Save(
                    record: record, isNew: live == nil, targets: CascadeTargets(), nameHash: hash,
                    sizeBound: ZonePlanner.encodedSizeBound(record), previous: live?.offset ?? zone.deleted.previousOfRecreated(name)))
        }
    }
}

extension ZoneState {
    /// Whether the zone is synced: it holds ``SyncRecords/zoneStateName``, which turns change
    /// tracking on.
    var isSynced: Bool { records[SyncRecords.zoneStateName] != nil }

    /// The pending change of `recordName` in this zone, if one is recorded.
    func pendingChange(for recordName: String) throws -> PendingChange? {
        let name = SyncRecords.pendingName(for: recordName)
        guard let entry = records[name] else { return nil }
        return PendingChange(try record(named: name, at: entry))
    }
}
