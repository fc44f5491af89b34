import RecordLog

extension ZoneState {
    /// Reads the record saved at `entry.offset` (the live version the key index names) from the
    /// zone's partition, through the log's batch cache (RocksDB's block cache serves its point
    /// reads the same way): reads of records near each other — the edits of a commit, a sync
    /// page applied over local records, fetches by ID — decompress and check their batch once,
    /// not once per record. Uncached, a commit of 400 `.changedKeys` edits decompressed
    /// a whole batch per edit (1.7 k edits/s; 34 k through the cache, BENCHMARKS.md).
    func record(named name: String, at entry: RecordEntry) throws -> Record {
        var found: Record?
        try partition.forEachRecordInPlace(from: entry.offset, to: entry.offset + 1, cached: true) { event in
            if let value = event.value {
                found = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true)
            }
            return false
        }
        guard let found else {
            throw RecordStoreError(.internalError, "The log holds no saved record \(name) at offset \(entry.offset) of zone \(zoneID).")
        }
        return found
    }
}

extension ZoneState {
    /// The ancestor of a conflicting save: the version of the record its change tag names.
    enum Ancestor {
        case found(Record)
        /// The client sent no change tag: it saved a new record over an existing name.
        case noChangeTag
        /// The tag names a version in an earlier incarnation of the zone.
        case otherIncarnation
        /// The tag's offset is no longer in the log, or holds no save of this record
        /// (compaction removed it, or the tag was not the store's).
        case notInLog
    }

    /// The version of `name` that `changeTag` names, read from the log: a change tag is the
    /// zone's incarnation and the offset of the save event (``ChangeTag``).
    ///
    /// - Throws: what reading the log throws, and the decoding error of a damaged record.
    func ancestor(of name: String, changeTag: String?) throws -> Ancestor {
        guard let changeTag else { return .noChangeTag }
        guard let (incarnation, offset) = ChangeTag.parse(changeTag) else { return .notInLog }
        guard incarnation == self.incarnation else { return .otherIncarnation }
        guard offset >= partition.startOffset, offset < partition.endOffset else { return .notInLog }
        var found: Record?
        try partition.forEachRecordInPlace(from: offset, to: offset + 1, cached: true) { event in
            guard event.offset == offset, StoredEvent.kind(of: event) == .save, let value = event.value,
                event.keyString == name
            else { return false }
            found = try RecordCodec.decode(value, recordID: RecordID(recordName: name, zoneID: zoneID), zoneChecked: true)
            return false
        }
        return found.map(Ancestor.found) ?? .notInLog
    }
}
