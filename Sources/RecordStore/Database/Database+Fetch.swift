import RecordLog

extension Database {
    /// Fetches records by ID, each from its latest version in the log.
    ///
    /// - Parameter desiredKeys: the fields to return; nil for all, `[]` for system fields only.
    /// - Returns: one result per ID: the record, or `unknownItem` / `zoneNotFound`.
    public func records(for ids: [RecordID], desiredKeys: [String]? = nil) async throws -> [RecordID: Result<Record, RecordStoreError>] {
        try checkOpen()
        try await refreshBeforeRead()
        var results: [RecordID: Result<Record, RecordStoreError>] = [:]
        for id in ids {
            do {
                let zone = try zone(id.zoneID)
                guard let entry = zone.records[id.recordName] else { throw RecordStoreError.unknownItem(id) }
                results[id] = .success(try zone.record(named: id.recordName, at: entry).keeping(desiredKeys))
            } catch let error as RecordStoreError {
                results[id] = .failure(error)
            }
        }
        return results
    }

    /// Fetches one record.
    ///
    /// - Throws: `unknownItem` or `zoneNotFound`.
    public func record(for id: RecordID, desiredKeys: [String]? = nil) async throws -> Record {
        guard let result = try await records(for: [id], desiredKeys: desiredKeys)[id] else { throw RecordStoreError.unknownItem(id) }
        return try result.get()
    }
}

extension Record {
    /// The record with only `desiredKeys` (all when nil), system fields kept.
    func keeping(_ desiredKeys: [String]?) -> Record {
        guard let desiredKeys else { return self }
        return keeping(Set(desiredKeys))
    }

    /// The record with only the fields in `wanted`, system fields kept, no changed keys.
    func keeping(_ wanted: Set<String>) -> Record {
        Record(
            recordType: recordType, recordID: recordID, sortedFields: fields.filter { wanted.contains($0.key) },
            creationDate: creationDate, modificationDate: modificationDate, recordChangeTag: recordChangeTag)
    }
}
