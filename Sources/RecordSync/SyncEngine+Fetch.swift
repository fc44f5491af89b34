import Foundation
import RecordStore

extension SyncEngine {
    /// Fetches the remote's changes and applies them locally: the zones changed and deleted
    /// since the last fetch, then each changed zone's records page by page, each page in one
    /// local commit together with the zone's new token. A zone deleted remotely is deleted
    /// locally; a record with a pending local change is left for ``sendChanges()`` to merge,
    /// unless the remote deleted it (the delete wins). After `changeTokenExpired` the zone is
    /// fetched from scratch and the local records the remote no longer has are deleted.
    ///
    /// - Throws: the remote's errors (transport, authorization) and the local store's; what was
    ///   applied before the error stays applied, with its token.
    public func fetchChanges() async throws {
        try await exclusively { try await fetchRound() }
    }

    private func fetchRound() async throws {
        try await prepare()
        emit(.willFetchChanges)
        let stored = try local.syncRead(in: .default) { try DatabaseSyncState.token(in: $0) }
        let changes: DatabaseChanges
        do {
            changes = try await remote.fetchDatabaseChanges(since: stored)
        } catch let error as RecordStoreError where stored != nil && (error.code == .invalidArguments || error.code == .changeTokenExpired) {
            // A token the remote no longer takes (another store behind the same address): start over.
            configuration.logger.warning("the remote refused the database change token; fetching every zone", metadata: ["error": "\(error)"])
            changes = try await remote.fetchDatabaseChanges(since: nil)
        }
        let deleted = changes.deletedZones.filter(includes)
        let changed = changes.changedZones.filter(includes)
        emit(.fetchedDatabaseChanges(changedZones: changed, deletedZones: deleted))
        let localZones = Set(try await local.allZones())
        for zoneID in deleted where localZones.contains(zoneID) && !zoneID.isDefault {
            try await local.deleteZone(zoneID)
            emit(.zoneDeleted(zoneID))
        }
        for zoneID in changed {
            _ = try await local.createZone(zoneID)
            try await adopt(zoneID)
        }
        try await fetchZones(changed)
        _ = try await local.syncWrite(in: .default) { _ in ([DatabaseSyncState.record(token: changes.changeToken)], []) }
        emit(.didFetchChanges)
    }

    /// A zone being fetched: where it stands and, when reconciling, what the remote holds.
    private struct ZoneFetch {
        var state: ZoneSyncState
        /// The names of the records the remote has (a refetch from scratch collects them).
        var seen: Set<String> = []
    }

    /// Fetches the changed zones' pages, several zones per remote call, until no zone has more.
    private func fetchZones(_ zoneIDs: [ZoneID]) async throws {
        var fetching: [ZoneID: ZoneFetch] = [:]
        for zoneID in zoneIDs {
            var state = try local.syncRead(in: zoneID) { try ZoneSyncState.read($0) } ?? ZoneSyncState()
            // An interrupted reconciliation starts over: the names it had seen are gone.
            if state.reconciling { state.token = nil }
            fetching[zoneID] = ZoneFetch(state: state)
        }
        // The next round's pages, asked for while this round's are applied (a remote's round
        // trip overlaps the local commit), with the zones and tokens they were asked for.
        var prefetch: (zones: [ZoneID], tokens: [ServerChangeToken?], task: Task<[ZoneID: Result<ZoneChanges, RecordStoreError>], any Error>)?
        defer { prefetch?.task.cancel() }
        while !fetching.isEmpty {
            let zones = fetching.keys.sorted { $0.zoneName < $1.zoneName }
            let tokens = zones.map { fetching[$0]?.state.token }
            let results: [ZoneID: Result<ZoneChanges, RecordStoreError>]
            if let ready = prefetch, ready.zones == zones, ready.tokens == tokens {
                results = try await ready.task.value
            } else {
                prefetch?.task.cancel()
                results = try await remote.fetchZoneChanges(inZonesWith: zones, configurations: configurations(zones, tokens))
            }
            prefetch = nil
            // Every zone goes on from its page's token: the next round is known now.
            let pages = zones.compactMap { zoneID -> ZoneChanges? in
                guard case .success(let page)? = results[zoneID], page.moreComing else { return nil }
                return page
            }
            if pages.count == zones.count {
                let next = pages.map { Optional($0.changeToken) }
                let remote = self.remote
                let nextConfigurations = configurations(zones, next)
                prefetch = (zones, next, Task { try await remote.fetchZoneChanges(inZonesWith: zones, configurations: nextConfigurations) })
            }
            for zoneID in zones {
                guard var zone = fetching[zoneID] else { continue }
                switch results[zoneID] {
                case .success(let page)?:
                    try await apply(page, to: zoneID, fetch: &zone)
                    if page.moreComing {
                        fetching[zoneID] = zone
                    } else {
                        if zone.state.reconciling { try await reconcile(zoneID, fetch: zone) }
                        fetching[zoneID] = nil
                    }
                case .failure(let error) where error.code == .changeTokenExpired:
                    emit(.tokenExpired(zoneID))
                    zone.state.token = nil
                    zone.state.reconciling = true
                    zone.seen = []
                    fetching[zoneID] = zone
                case .failure(let error) where error.code == .zoneNotFound:
                    // Deleted since the database changes were read: the next fetch deletes it.
                    fetching[zoneID] = nil
                case .failure(let error)?:
                    throw error
                case nil:
                    throw RecordStoreError(.internalError, "The remote answered no result for zone \(zoneID).", zoneID: zoneID)
                }
            }
        }
    }

    /// Each zone's fetch from its token, with the engine's page size.
    private func configurations(_ zones: [ZoneID], _ tokens: [ServerChangeToken?]) -> [ZoneID: ZoneChangesConfiguration] {
        var configurations: [ZoneID: ZoneChangesConfiguration] = [:]
        for (zoneID, token) in zip(zones, tokens) {
            configurations[zoneID] = ZoneChangesConfiguration(previousServerChangeToken: token, resultsLimit: configuration.resultsLimit)
        }
        return configurations
    }

    /// Applies one page to the local zone in one commit with the zone's new token; a page too
    /// large for one commit (large records) is applied in halves, the token with the last.
    private func apply(_ page: ZoneChanges, to zoneID: ZoneID, fetch: inout ZoneFetch) async throws {
        try await apply(page, to: zoneID, fetch: &fetch, token: page.changeToken)
    }

    private func apply(_ page: ZoneChanges, to zoneID: ZoneID, fetch: inout ZoneFetch, token: ServerChangeToken?) async throws {
        do {
            try await applyInOneCommit(page, to: zoneID, fetch: &fetch, token: token)
        } catch let error as RecordStoreError where error.code == .limitExceeded && page.changedRecords.count + page.deletions.count > 1 {
            let saves = page.changedRecords.count / 2
            let first = ZoneChanges(
                changedRecords: Array(page.changedRecords[..<saves]), deletions: saves == 0 ? [page.deletions[0]] : [],
                changeToken: page.changeToken, moreComing: true)
            let rest = ZoneChanges(
                changedRecords: Array(page.changedRecords[saves...]), deletions: saves == 0 ? Array(page.deletions.dropFirst()) : page.deletions,
                changeToken: page.changeToken, moreComing: page.moreComing)
            // The first half keeps the token the zone had: a crash after it fetches the page again.
            try await apply(first, to: zoneID, fetch: &fetch, token: fetch.state.token)
            SyncHook.reached(.appliedInPart)
            try await apply(rest, to: zoneID, fetch: &fetch, token: token)
        }
    }

    /// Applies `page` to the local zone in one commit that saves the zone's state with `token`.
    private func applyInOneCommit(_ page: ZoneChanges, to zoneID: ZoneID, fetch: inout ZoneFetch, token: ServerChangeToken?) async throws {
        var next = fetch.state
        next.token = token
        let state = next
        var saved: [RecordID] = []
        var deleted: [RecordID] = []
        var skipped: [RecordID] = []
        if state.reconciling {
            for record in page.changedRecords { fetch.seen.insert(record.recordID.recordName) }
        }
        _ = try await local.syncWrite(in: zoneID) { reader -> (saving: [Record], deleting: [RecordID]) in
            saved = []
            deleted = []
            skipped = []
            var saving: [Record] = []
            var deleting: [RecordID] = []
            for remote in page.changedRecords where !SyncRecords.isSystemName(remote.recordID.recordName) {
                let id = RecordID(recordName: remote.recordID.recordName, zoneID: zoneID)
                if reader.pendingChangeTag(for: id.recordName) != nil {
                    skipped.append(id)
                    continue
                }
                let current = try reader.record(named: id.recordName)
                if let current, current.syncChangeTag == remote.recordChangeTag { continue }
                saving.append(Record.replacing(current, with: remote))
                saved.append(id)
            }
            for deletion in page.deletions where !SyncRecords.isSystemName(deletion.recordID.recordName) {
                let name = deletion.recordID.recordName
                let id = RecordID(recordName: name, zoneID: zoneID)
                if reader.contains(name) {
                    deleting.append(id)
                    deleted.append(id)
                }
                // The remote's delete wins over a pending local change.
                if reader.pendingChangeTag(for: name) != nil {
                    deleting.append(RecordID(recordName: SyncRecords.pendingName(for: name), zoneID: zoneID))
                }
            }
            saving.append(state.record(in: zoneID, replacing: try reader.record(named: SyncRecords.zoneStateName)))
            return (saving, deleting)
        }
        fetch.state = state
        emit(.fetchedZoneChanges(zoneID, saved: saved, deleted: deleted, skipped: skipped, moreComing: page.moreComing))
        emit(.stateSaved(zoneID))
    }

    /// After a refetch from scratch: deletes the local records the remote does not have, except
    /// those with a pending local change (which the next send uploads), and clears the mark.
    private func reconcile(_ zoneID: ZoneID, fetch: ZoneFetch) async throws {
        var removed: [RecordID] = []
        var state = fetch.state
        state.reconciling = false
        let done = state
        _ = try await local.syncWrite(in: zoneID) { reader -> (saving: [Record], deleting: [RecordID]) in
            removed = []
            for (type, _) in reader.liveRecordsByType where !Self.isSystemType(type) {
                for name in reader.names(ofType: type)
                where !SyncRecords.isSystemName(name) && !fetch.seen.contains(name) && reader.pendingChangeTag(for: name) == nil {
                    removed.append(RecordID(recordName: name, zoneID: zoneID))
                }
            }
            return ([done.record(in: zoneID, replacing: try reader.record(named: SyncRecords.zoneStateName))], removed)
        }
        emit(.reconciled(zoneID, removed: removed))
    }
}
