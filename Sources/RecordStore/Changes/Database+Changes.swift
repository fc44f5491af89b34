import Foundation
import RecordLog

extension Database {
    /// The changes of a zone since `token` (everything when nil), at most `resultsLimit` records
    /// (saved or deleted) per page; nil or 0 for as many as possible. Chaining the returned tokens
    /// yields every change exactly once.
    ///
    /// - Throws: `zoneNotFound`; `invalidArguments` for a token that is malformed, of another
    ///   store, of another zone or a database token, or a negative `resultsLimit`;
    ///   `changeTokenExpired` for a token of a deleted incarnation of the zone, newer than the
    ///   log, or older than the zone's expiry offset when a compaction has dropped deletes since
    ///   its holder began reading (one of them may be of a record the holder has: fetch from
    ///   nil, which returns every live record). The pages of a fetch from nil chain as long as
    ///   no compaction drops deletes meanwhile (FORMAT.md §11.1).
    public func fetchZoneChanges(
        in zoneID: ZoneID, since token: ServerChangeToken?, resultsLimit: Int? = nil, desiredKeys: [String]? = nil
    ) async throws -> ZoneChanges {
        try await fetchZoneChanges(in: zoneID, since: token, resultsLimit: resultsLimit, pageBytes: .max, desiredKeys: desiredKeys)
    }

    /// ``fetchZoneChanges(in:since:resultsLimit:desiredKeys:)`` with pages that end once their
    /// records' stored values reach `pageBytes` (a server's byte budget; a page holds at least
    /// one change).
    package func fetchZoneChanges(
        in zoneID: ZoneID, since token: ServerChangeToken?, resultsLimit: Int?, pageBytes: Int, desiredKeys: [String]?
    ) async throws -> ZoneChanges {
        try await refreshBeforeRead()
        let range = try changeRange(in: zoneID, since: token)
        let page = try ZoneChangePage.read(
            range.zone, from: range.from, to: range.end, limit: try Self.changesLimit(resultsLimit), byteBudget: pageBytes,
            desiredKeys: desiredKeys.map(Set.init))
        try range.checkNotExpired()
        return ZoneChanges(
            changedRecords: page.changed, deletions: page.deletions, changeToken: range.token(at: page.next, storeID: storeID),
            moreComing: page.next < range.end, clientChangeTokenData: range.zone.clientToken.map { Data($0.data) })
    }

    /// The changes of a zone since `token` (everything when nil), handed out one by one as
    /// CloudKit's `CKFetchRecordZoneChangesOperation` does: `recordChanged` with each record saved
    /// since the token, in its latest state, and `recordDeleted` with each deletion, oldest change
    /// first, at most `resultsLimit` records; then the token to continue from, whether more
    /// changes follow, and the zone's latest client change token. The same changes as ``fetchZoneChanges(in:since:resultsLimit:desiredKeys:)``.
    ///
    /// Each record is read in place: nothing is decoded but the fields the callback reads, so an
    /// app that folds the changes into its own model builds that model and no ``Record``. A
    /// ``StoredRecord`` is valid only during its call (keep its values, or its
    /// ``StoredRecord/materialized()`` record).
    ///
    /// ```swift
    /// let end = try await database.fetchZoneChanges(in: notes, since: token, recordChanged: { record in
    ///     if case .string(let text)? = record["content"] { texts[record.recordID.recordName] = text }
    /// }, recordDeleted: { deletion in texts[deletion.recordID.recordName] = nil })
    /// token = end.changeToken
    /// ```
    ///
    /// - Throws: as ``fetchZoneChanges(in:since:resultsLimit:desiredKeys:)``, and what a callback
    ///   throws, which ends the fetch. A latest save that does not decode throws its
    ///   ``RecordDecodingError`` once the changes before it were handed out.
    public func fetchZoneChanges(
        in zoneID: ZoneID, since token: ServerChangeToken?, resultsLimit: Int? = nil,
        recordChanged: (StoredRecord) throws -> Void, recordDeleted: (ZoneChanges.Deletion) throws -> Void
    ) async throws -> (changeToken: ServerChangeToken, moreComing: Bool, clientChangeTokenData: Data?) {
        try await fetchZoneChanges(in: zoneID, since: token, resultsLimit: resultsLimit, pageBytes: .max, recordChanged: recordChanged, recordDeleted: recordDeleted)
    }

    /// ``fetchZoneChanges(in:since:resultsLimit:recordChanged:recordDeleted:)`` with pages that
    /// end once their records' stored values reach `pageBytes` (a page holds at least one change).
    package func fetchZoneChanges(
        in zoneID: ZoneID, since token: ServerChangeToken?, resultsLimit: Int?, pageBytes: Int,
        recordChanged: (StoredRecord) throws -> Void, recordDeleted: (ZoneChanges.Deletion) throws -> Void
    ) async throws -> (changeToken: ServerChangeToken, moreComing: Bool, clientChangeTokenData: Data?) {
        try await refreshBeforeRead()
        let range = try changeRange(in: zoneID, since: token)
        let zone = range.zone
        let scan = try ZoneChangeScan(zone, from: range.from, to: range.end, limit: try Self.changesLimit(resultsLimit), byteBudget: pageBytes)
        try range.checkNotExpired()
        for entry in scan.entries {
            let id = RecordID(recordName: entry.name, zoneID: zone.zoneID)
            switch entry.change {
            case .save(let slot, let checked):
                try scan.values.withBytes(slot) { bytes in
                    let record = try checked ? StoredRecord(trusting: bytes, recordID: id) : StoredRecord(bytes, recordID: id, zoneChecked: true)
                    try recordChanged(record)
                }
            case .delete(let recordType):
                try recordDeleted(.init(recordID: id, recordType: recordType))
            case .none:
                continue
            }
        }
        return (range.token(at: scan.next, storeID: storeID), scan.next < range.end, zone.clientToken.map { Data($0.data) })
    }

    /// The most records a page of changes holds: nil or 0 (CloudKit's `maximumResults`) for as
    /// many as possible.
    static func changesLimit(_ resultsLimit: Int?) throws(RecordStoreError) -> Int {
        guard let resultsLimit, resultsLimit != 0 else { return Int.max }
        guard resultsLimit > 0 else {
            throw RecordStoreError(.invalidArguments, "resultsLimit is \(resultsLimit); ask for a number of changes per page, or 0 (or nil) for as many as possible.")
        }
        return resultsLimit
    }

    /// The zone and the range of its log that the changes since `token` cover.
    private func changeRange(in zoneID: ZoneID, since token: ServerChangeToken?) throws -> ZoneChangeRange {
        try checkOpen()
        let zone = try zone(zoneID)
        let partition = zone.partition
        // First: the sequence the read's records are at least as new as (FORMAT.md §11.1).
        let sequence = partition.dropSequence
        let end = partition.endOffset
        guard let token else { return ZoneChangeRange(zone: zone, from: partition.startOffset, end: end, sequence: sequence) }
        guard case .zone(let entry, let stamp) = try TokenContent.decode(token, storeID: storeID) else {
            throw RecordStoreError(.invalidArguments, "This is a database change token; fetch zone changes with a zone token.", zoneID: zoneID)
        }
        guard entry.zoneName == zoneID.zoneName else {
            throw RecordStoreError(.invalidArguments, "The change token belongs to zone \"\(entry.zoneName)\", not \"\(zoneID.zoneName)\".", zoneID: zoneID)
        }
        let range = ZoneChangeRange(
            zone: zone, from: max(entry.position.offset, partition.startOffset), end: end, sequence: sequence, token: entry.position,
            stamp: stamp)
        guard entry.position.incarnation == zone.incarnation, entry.position.offset <= end, !range.mayMissDroppedDelete(now: sequence) else {
            throw RecordStoreError.changeTokenExpired(zoneID)
        }
        return range
    }

    /// A zone token at `offset`, stamped with the zone's drop sequence when it is settled: what
    /// ``RecordZone/currentChangeToken`` holds.
    func zoneToken(for zone: ZoneState, at offset: Int64) -> ServerChangeToken {
        ZoneChangeRange(zone: zone, from: offset, end: offset, sequence: zone.partition.dropSequence).token(at: offset, storeID: storeID)
    }

    /// The zones changed and deleted since `token` (all zones when nil).
    ///
    /// - Throws: `invalidArguments` for a token that is malformed, of another store or a zone token.
    public func fetchDatabaseChanges(since token: ServerChangeToken?) async throws -> DatabaseChanges {
        try checkOpen()
        try await refreshBeforeRead()
        let zones = state.withLock { state in
            state.zones.values.map {
                TokenContent.Entry(zoneName: $0.zoneID.zoneName, position: ZonePosition(incarnation: $0.incarnation, offset: $0.partition.endOffset))
            }
        }.sorted { $0.zoneName < $1.zoneName }
        var changed: [ZoneID] = []
        var deleted: [ZoneID] = []
        if let token {
            guard case .database(let previous) = try TokenContent.decode(token, storeID: storeID) else {
                throw RecordStoreError(.invalidArguments, "This is a zone change token; fetch database changes with a database token.")
            }
            let before = Dictionary(previous.map { ($0.zoneName, $0) }, uniquingKeysWith: { first, _ in first })
            let now = Set(zones.map(\.zoneName))
            for zone in zones {
                guard let old = before[zone.zoneName] else {
                    changed.append(ZoneID(zoneName: zone.zoneName))
                    continue
                }
                let (was, current) = (old.position, zone.position)
                if was.incarnation != current.incarnation { deleted.append(ZoneID(zoneName: zone.zoneName)) }
                if was.incarnation != current.incarnation || current.offset > was.offset { changed.append(ZoneID(zoneName: zone.zoneName)) }
            }
            for old in previous where !now.contains(old.zoneName) { deleted.append(ZoneID(zoneName: old.zoneName)) }
        } else {
            changed = zones.map { ZoneID(zoneName: $0.zoneName) }
        }
        return DatabaseChanges(
            changedZones: changed, deletedZones: deleted.sorted { $0.zoneName < $1.zoneName },
            changeToken: TokenContent.database(zones).encode(storeID: storeID), moreComing: false)
    }
}
