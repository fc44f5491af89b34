import Foundation
import RecordStore

extension SyncEngine {
    /// Once per run, before the first round: every local zone this engine syncs becomes synced
    /// (``adopt(_:)``).
    func prepare() async throws {
        guard !prepared else { return }
        for zoneID in try await localZones() { try await adopt(zoneID) }
        prepared = true
    }

    /// Makes a local zone synced: its `_sync.zone` record turns change tracking on, then every
    /// record it already held is marked pending (so a store that existed before sync uploads
    /// what it has), in commits of a few hundred, then the mark is cleared. A crash in between
    /// leaves `adopting` set and the next run marks again (marking is idempotent).
    func adopt(_ zoneID: ZoneID) async throws {
        let state = try local.syncRead(in: zoneID) { try ZoneSyncState.read($0) }
        if let state, !state.adopting { return }
        var adopting = state ?? ZoneSyncState()
        adopting.adopting = true
        if state == nil {
            _ = try await local.syncWrite(in: zoneID) { reader in
                ([adopting.record(in: zoneID, replacing: try reader.record(named: SyncRecords.zoneStateName))], [])
            }
            SyncHook.reached(.adoptionBegun)
        }
        let chunk = 500
        while true {
            let result = try await local.syncWrite(in: zoneID) { reader -> (saving: [Record], deleting: [RecordID]) in
                var markers: [Record] = []
                for (type, _) in reader.liveRecordsByType.sorted(by: { $0.key < $1.key }) where !Self.isSystemType(type) {
                    for name in reader.names(ofType: type) where !SyncRecords.isSystemName(name) {
                        guard markers.count < chunk else { break }
                        guard reader.pendingChangeTag(for: name) == nil, let record = try reader.record(named: name) else { continue }
                        // A record in step with the remote (synced before) needs no upload.
                        guard record.syncChangeTag == nil else { continue }
                        markers.append(PendingChange(recordName: name, isDelete: false, changedKeys: record.allKeys()).record(in: zoneID))
                    }
                }
                return (markers, [])
            }
            if result.saveResults.isEmpty { break }
            SyncHook.reached(.adoptionMarked)
        }
        adopting.adopting = false
        _ = try await local.syncWrite(in: zoneID) { reader in
            ([adopting.record(in: zoneID, replacing: try reader.record(named: SyncRecords.zoneStateName))], [])
        }
        emit(.stateSaved(zoneID))
    }

    static func isSystemType(_ type: String) -> Bool {
        type == SyncRecords.pendingType || type == SyncRecords.zoneStateType || type == SyncRecords.databaseStateType
    }
}
