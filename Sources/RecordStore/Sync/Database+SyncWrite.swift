import Foundation

/// What a sync write reads of its zone while it decides what to write: the zone's live records,
/// under the database's lock, so that nothing changes between the read and the write.
package struct SyncZoneReader {
    let zone: ZoneState

    /// The live record named `name`, or nil.
    package func record(named name: String) throws -> Record? {
        guard let entry = zone.records[name] else { return nil }
        return try zone.record(named: name, at: entry)
    }

    /// Whether a record named `name` is live.
    package func contains(_ name: String) -> Bool { zone.records[name] != nil }

    /// The pending change of `recordName`, if one is recorded.
    package func pendingChange(for recordName: String) throws -> PendingChange? {
        try zone.pendingChange(for: recordName)
    }

    /// The change tag of the pending-change record of `recordName` (which changes with every
    /// change folded into it), or nil when none is pending.
    package func pendingChangeTag(for recordName: String) -> String? {
        zone.records[SyncRecords.pendingName(for: recordName)].map { ChangeTag.make(incarnation: zone.incarnation, offset: $0.offset) }
    }

    /// The names of the live records of `recordType`.
    package func names(ofType recordType: String) -> [String] { zone.records.names(ofType: recordType) }

    /// How many live records of each type the zone holds.
    package var liveRecordsByType: [String: Int] { zone.records.liveRecordsByType }
}

extension Database {
    /// One commit in `zoneID`, decided under the database's lock by `decide` from the zone's
    /// current records, written as a sync write (``WriteMode/sync``: system records allowed, saves
    /// with `.allKeys` taking the request's sync change tag, no pending changes recorded). No
    /// other writer can commit between the decision and the write, so a sync engine can say
    /// "apply this remote record unless the app has a pending change for it" and be right.
    ///
    /// - Returns: the results; empty when `decide` asks for nothing.
    /// - Throws: `zoneNotFound`; what `decide` throws; `partialFailure` when an item fails
    ///   (nothing is written).
    package func syncWrite(
        in zoneID: ZoneID, _ decide: (SyncZoneReader) throws -> (saving: [Record], deleting: [RecordID])
    ) async throws -> ModifyResult {
        try checkOpen()
        let now = MillisecondDate.date(milliseconds: MillisecondDate.milliseconds(of: Date()) ?? 0)
        var results = ModifyResult(saveResults: [:], deleteResults: [:])
        let commits = try state.withLock { state -> [ZoneCommit] in
            guard let zone = state.zones[zoneID] else { throw RecordStoreError.zoneNotFound(zoneID) }
            let (saving, deleting) = try decide(SyncZoneReader(zone: zone))
            guard !saving.isEmpty || !deleting.isEmpty else { return [] }
            guard saving.allSatisfy({ $0.recordID.zoneID == zoneID }), deleting.allSatisfy({ $0.zoneID == zoneID }) else {
                throw RecordStoreError(.invalidArguments, "A sync write names a record outside its zone \(zoneID).", zoneID: zoneID)
            }
            let requests = try ZoneRequest.split(saving: saving, deleting: deleting)
            var commits = try plan(requests, policy: .allKeys, now: now, zones: state.zones, mode: .sync)
            try Self.refuseIfAnyFailed(commits, saving: saving, deleting: deleting)
            for index in commits.indices { try encode(&commits[index], state: &state) }
            for index in commits.indices { try write(&commits[index], results: &results, state: &state) }
            return commits
        }
        try await publish(commits)
        return results
    }

    /// The store's identity (16 random bytes, made when it was created): a device's identity in sync.
    package var storeIdentity: [UInt8] { storeID }
}

extension Database {
    /// Reads `zoneID` under the database's lock (a consistent view between two commits), for a
    /// sync engine collecting its pending changes.
    ///
    /// - Throws: `zoneNotFound`; what `body` throws.
    package func syncRead<Result>(in zoneID: ZoneID, _ body: (SyncZoneReader) throws -> Result) throws -> Result {
        try checkOpen()
        return try state.withLock { state in
            guard let zone = state.zones[zoneID] else { throw RecordStoreError.zoneNotFound(zoneID) }
            return try body(SyncZoneReader(zone: zone))
        }
    }
}
