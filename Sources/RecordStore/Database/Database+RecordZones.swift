extension Database {
    /// Creates the zone, or returns it as it is when it exists (as CloudKit's save of a zone),
    /// with its current change token.
    ///
    /// - Throws: `invalidArguments` for a bad zone name or for capabilities this store does not
    ///   give (``RecordZone/Capabilities/sharing``).
    @discardableResult
    public func save(_ zone: RecordZone) async throws -> RecordZone {
        guard RecordZone.Capabilities.all.isSuperset(of: zone.capabilities) else {
            throw RecordStoreError(
                .invalidArguments,
                "Zone \(zone.zoneID) asks for capabilities this store does not give (zones cannot be shared); "
                    + "save it with RecordZone.Capabilities.all or fewer.",
                zoneID: zone.zoneID)
        }
        return try recordZone(state: self.zone(try await createZone(zone.zoneID)))
    }

    /// The zone with `zoneID`, with its current change token.
    ///
    /// - Throws: `zoneNotFound` when it does not exist.
    public func recordZone(for zoneID: ZoneID) async throws -> RecordZone {
        try recordZone(state: zone(try await fetchZone(zoneID)))
    }

    /// Every zone, the default zone included, sorted by name, each with its current change token.
    public func allRecordZones() async throws -> [RecordZone] {
        try checkOpen()
        try await refreshBeforeRead()
        let zones = state.withLock { Array($0.zones.values) }
        return zones.sorted { $0.zoneID.zoneName < $1.zoneID.zoneName }.map(recordZone(state:))
    }

    /// The zone as the store reports it: its token is at the zone's end offset.
    private func recordZone(state zone: ZoneState) -> RecordZone {
        RecordZone(zoneID: zone.zoneID, currentChangeToken: zoneToken(for: zone, at: zone.partition.endOffset))
    }
}
