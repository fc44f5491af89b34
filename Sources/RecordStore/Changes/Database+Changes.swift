import RecordLog

extension Database {
    /// The changes of a zone since `token` (everything when nil), at most `resultsLimit` records
    /// (saved or deleted) per page. Chaining the returned tokens yields every change exactly once.
    ///
    /// - Throws: `zoneNotFound`; `invalidArguments` for a token that is malformed, of another
    ///   store, of another zone or a database token; `changeTokenExpired` for a token of a deleted
    ///   incarnation of the zone, or older or newer than the log holds.
    public func fetchZoneChanges(
        in zoneID: ZoneID, since token: ServerChangeToken?, resultsLimit: Int? = nil, desiredKeys: [String]? = nil
    ) async throws -> ZoneChanges {
        try checkOpen()
        let zone = try zone(zoneID)
        let partition = zone.partition
        let end = partition.endOffset
        var from = partition.startOffset
        if let token {
            guard case .zone(let position) = try TokenContent.decode(token, storeID: storeID) else {
                throw RecordStoreError(.invalidArguments, "This is a database change token; fetch zone changes with a zone token.", zoneID: zoneID)
            }
            guard position.zoneName == zoneID.zoneName else {
                throw RecordStoreError(.invalidArguments, "The change token belongs to zone \"\(position.zoneName)\", not \"\(zoneID.zoneName)\".", zoneID: zoneID)
            }
            guard position.incarnation == zone.incarnation, position.offset >= partition.startOffset, position.offset <= end else {
                throw RecordStoreError.changeTokenExpired(zoneID)
            }
            from = position.offset
        }
        let page = try ZoneChangePage.read(
            zone, from: from, to: end, limit: max(1, resultsLimit ?? Int.max), desiredKeys: desiredKeys.map(Set.init))
        let position = TokenContent.ZonePosition(zoneName: zoneID.zoneName, incarnation: zone.incarnation, offset: page.next)
        return ZoneChanges(
            changedRecords: page.changed, deletions: page.deletions, changeToken: TokenContent.zone(position).encode(storeID: storeID),
            moreComing: page.next < end)
    }

    /// The zones changed and deleted since `token` (all zones when nil).
    ///
    /// - Throws: `invalidArguments` for a token that is malformed, of another store or a zone token.
    public func fetchDatabaseChanges(since token: ServerChangeToken?) async throws -> DatabaseChanges {
        try checkOpen()
        let zones = state.withLock { state in
            state.zones.values.map { TokenContent.ZonePosition(zoneName: $0.zoneID.zoneName, incarnation: $0.incarnation, offset: $0.partition.endOffset) }
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
                if old.incarnation != zone.incarnation { deleted.append(ZoneID(zoneName: zone.zoneName)) }
                if old.incarnation != zone.incarnation || zone.offset > old.offset { changed.append(ZoneID(zoneName: zone.zoneName)) }
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
