extension Database {
    /// Creates the zone, or returns it as it is when it exists (as CloudKit's save of a zone).
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
        return RecordZone(zoneID: try await createZone(zone.zoneID))
    }

    /// The zone with `zoneID`.
    ///
    /// - Throws: `zoneNotFound` when it does not exist.
    public func recordZone(for zoneID: ZoneID) async throws -> RecordZone {
        RecordZone(zoneID: try await fetchZone(zoneID))
    }

    /// Every zone, the default zone included, sorted by name.
    public func allRecordZones() async throws -> [RecordZone] {
        try await allZones().map(RecordZone.init(zoneID:))
    }
}
