extension Database {
    /// The changes of several zones in one call, each zone with its own token, limit and desired
    /// keys, as CloudKit's `CKFetchRecordZoneChangesOperation` with its configurations. Each
    /// zone's result is its own: a page (with its `moreComing` and client change token), or its
    /// error — `zoneNotFound`, `changeTokenExpired`, `invalidArguments` for a bad token — which
    /// does not stop the other zones.
    ///
    /// ```swift
    /// let results = try await database.fetchZoneChanges(inZonesWith: [notes, photos], configurations: [
    ///     notes: ZoneChangesConfiguration(previousServerChangeToken: notesToken, resultsLimit: 200),
    ///     photos: ZoneChangesConfiguration(desiredKeys: ["caption"]),
    /// ])
    /// for (zoneID, result) in results { let page = try result.get(); tokens[zoneID] = page.changeToken }
    /// ```
    ///
    /// - Parameters:
    ///   - zoneIDs: the zones to fetch, each once.
    ///   - configurations: per zone; a zone without one fetches everything.
    /// - Throws: `invalidArguments` when a zone is named twice; a closed database's error.
    public func fetchZoneChanges(
        inZonesWith zoneIDs: [ZoneID], configurations: [ZoneID: ZoneChangesConfiguration] = [:]
    ) async throws -> [ZoneID: Result<ZoneChanges, RecordStoreError>] {
        try checkOpen()
        guard Set(zoneIDs).count == zoneIDs.count else {
            throw RecordStoreError(.invalidArguments, "A zone is named twice in one fetch of zone changes; name each zone once.")
        }
        var results: [ZoneID: Result<ZoneChanges, RecordStoreError>] = [:]
        for zoneID in zoneIDs {
            let configuration = configurations[zoneID] ?? ZoneChangesConfiguration()
            do {
                results[zoneID] = .success(
                    try await fetchZoneChanges(
                        in: zoneID, since: configuration.previousServerChangeToken, resultsLimit: configuration.resultsLimit,
                        desiredKeys: configuration.desiredKeys))
            } catch let error as RecordStoreError {
                results[zoneID] = .failure(error)
            }
        }
        return results
    }
}
