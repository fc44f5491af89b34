extension ZoneState {
    /// Builds the index `declaration` from the zone's live records, reading each from the log.
    func buildIndex(_ declaration: IndexDeclaration) throws -> FieldIndex {
        var entries: [(name: String, value: OrderedValue)] = []
        var reader = SavedRecordReader(partition: partition, zoneID: zoneID)
        for name in inLogOrder(records.names(ofType: declaration.recordType)) {
            guard let entry = records[name] else { continue }
            let record = try reader.record(named: name, at: entry.offset)
            entries.append((name, OrderedValue(record.queryValue(forKey: declaration.key))))
        }
        return FieldIndex(key: declaration.key, entries: entries)
    }

    /// `names` sorted by the offset of their latest save, so reading them goes forward through the log.
    func inLogOrder(_ names: [String]) -> [String] {
        names.map { (offset: records[$0]?.offset ?? 0, name: $0) }.sorted { $0.offset < $1.offset }.map(\.name)
    }

    /// Builds the declared indexes this zone lacks, and marks its indexes loaded.
    mutating func loadIndexes(_ declarations: [IndexDeclaration]) throws {
        for declaration in declarations where !indexes.contains(declaration) {
            let index = try buildIndex(declaration)
            indexes.install(index, recordType: declaration.recordType)
        }
        indexes.isLoaded = true
    }
}
