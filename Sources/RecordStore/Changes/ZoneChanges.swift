/// What changed in a zone since a token, as CloudKit's `fetchRecordZoneChanges` reports it.
public struct ZoneChanges: Sendable {
    /// A record deleted since the token.
    public struct Deletion: Sendable, Hashable {
        public var recordID: RecordID
        public var recordType: String
    }

    /// Records saved since the token, each once, in its latest state, oldest change first.
    public var changedRecords: [Record]
    /// Records deleted since the token, oldest first.
    public var deletions: [Deletion]
    /// Where this page ends: pass it to the next call.
    public var changeToken: ServerChangeToken
    /// Whether more changes follow this page (fetch again with `changeToken`).
    public var moreComing: Bool
}

/// What changed in the database since a token, as CloudKit's `fetchDatabaseChanges` reports it.
public struct DatabaseChanges: Sendable {
    /// Zones created or changed since the token, sorted by name.
    public var changedZones: [ZoneID]
    /// Zones deleted since the token, sorted by name (a zone deleted and created again appears in both).
    public var deletedZones: [ZoneID]
    public var changeToken: ServerChangeToken
    /// Always false: every zone fits one page.
    public var moreComing: Bool
}
