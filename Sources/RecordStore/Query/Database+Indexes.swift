import RecordLog

extension Database {
    /// Declares an index on `key` of `recordType`, in every zone (present and future), so that
    /// queries with an `equals` or `in` predicate on the key, or sorted first by it, need not
    /// read every record of the type. Declaring an index that exists does nothing.
    ///
    /// The declaration is an event in the system log, replayed when the store opens; the index
    /// itself is built from the live records (now for open zones) and kept current by every save
    /// and delete.
    ///
    /// ```swift
    /// try await database.createIndex(recordType: "Note", key: "folder")
    /// ```
    ///
    /// - Parameter key: a field key, or `creationDate` / `modificationDate`.
    /// - Throws: `invalidArguments` for an invalid record type or key.
    public func createIndex(recordType: String, key: String) async throws {
        try checkOpen()
        guard Record.isValidFieldKey(recordType) else {
            throw RecordStoreError(
                .invalidArguments,
                "Cannot index record type \"\(recordType)\": it is not a valid record type name. Use the type your records are saved with, like \"Note\".")
        }
        try QueryValidation.validateKey(key, use: "index")
        let declaration = IndexDeclaration(recordType: recordType, key: key)
        let pending = try state.withLock { state -> PendingAppend? in
            guard try !indexDeclarations().contains(declaration) else { return nil }
            // Build first: if a record cannot be read, nothing is written.
            var built: [(ZoneID, FieldIndex)] = []
            for (zoneID, zone) in state.zones where zone.indexes.isLoaded {
                built.append((zoneID, try zone.buildIndex(declaration)))
            }
            var batch = RecordBatchBuilder()
            batch.append(key: recordType, value: Array(key.utf8), headers: StoredEvent.headers(.createIndex, recordType: recordType))
            let pending = try system.appendWithoutWaiting(batch.encode())
            for (zoneID, index) in built { state.zones[zoneID]?.indexes.install(index, recordType: recordType) }
            return pending
        }
        try await pending?.durable()
    }

    /// Builds every zone's declared indexes from its live records. Call once the zones are
    /// loaded; queries also do it lazily for each zone they search that has not been.
    func loadIndexes() throws {
        _ = try queryZones(nil)
    }

    /// Snapshots of the zones a query searches (one, or all sorted by name), with their declared
    /// indexes built.
    ///
    /// - Throws: `zoneNotFound`.
    func queryZones(_ zoneID: ZoneID?) throws -> [ZoneState] {
        try state.withLock { state in
            let ids = zoneID.map { [$0] } ?? state.zones.keys.sorted { ByteString($0.zoneName) < ByteString($1.zoneName) }
            var declarations: [IndexDeclaration]?
            var zones: [ZoneState] = []
            for id in ids {
                guard let zone = state.zones[id] else { throw RecordStoreError.zoneNotFound(id) }
                guard !zone.indexes.isLoaded else {
                    zones.append(zone)
                    continue
                }
                let declared = try declarations ?? indexDeclarations()
                declarations = declared
                var loaded = zone
                state.zones[id] = nil  // unique storage: the indexes are built in place
                defer { state.zones[id] = loaded }
                try loaded.loadIndexes(declared)
                zones.append(loaded)
            }
            return zones
        }
    }

    /// The indexes declared in the system log, in declaration order.
    func indexDeclarations() throws -> [IndexDeclaration] {
        var declarations: [IndexDeclaration] = []
        try system.forEachRecord(from: system.startOffset, to: nil) { event in
            if StoredEvent.kind(of: event) == .createIndex,
                let recordType = event.header(StoredEvent.recordTypeHeader)?.stringValue, let value = event.value
            {
                let declaration = IndexDeclaration(recordType: recordType, key: String(decoding: value, as: UTF8.self))
                if !declarations.contains(declaration) { declarations.append(declaration) }
            }
            return true
        }
        return declarations
    }
}
