import Foundation

/// What changed in a zone since a token, as CloudKit's `fetchRecordZoneChanges` reports it.
public struct ZoneChanges: Sendable {
    /// A record deleted since the token.
    public struct Deletion: Sendable, Hashable {
        public var recordID: RecordID
        public var recordType: String

        /// A deletion, as the store reports one (for fakes in an app's tests).
        public init(recordID: RecordID, recordType: String) {
            self.recordID = recordID
            self.recordType = recordType
        }
    }

    /// Records saved since the token, each once, in its latest state, oldest change first.
    public var changedRecords: [Record]
    /// Records deleted since the token, oldest first.
    public var deletions: [Deletion]
    /// Where this page ends: pass it to the next call.
    public var changeToken: ServerChangeToken
    /// Whether more changes follow this page (fetch again with `changeToken`).
    public var moreComing: Bool
    /// The latest client change token a `modifyRecords` request wrote into the zone with
    /// (`clientChangeTokenData:`), whichever page this is; nil when none did. Compare it with
    /// the token of your last request to know whether the store received it.
    public var clientChangeTokenData: Data?

    /// A page of changes, as the store reports one (for fakes in an app's tests).
    public init(
        changedRecords: [Record], deletions: [Deletion], changeToken: ServerChangeToken, moreComing: Bool, clientChangeTokenData: Data? = nil
    ) {
        self.changedRecords = changedRecords
        self.deletions = deletions
        self.changeToken = changeToken
        self.moreComing = moreComing
        self.clientChangeTokenData = clientChangeTokenData
    }
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

    /// Database changes, as the store reports them (for fakes in an app's tests).
    public init(changedZones: [ZoneID], deletedZones: [ZoneID], changeToken: ServerChangeToken, moreComing: Bool = false) {
        self.changedZones = changedZones
        self.deletedZones = deletedZones
        self.changeToken = changeToken
        self.moreComing = moreComing
    }
}
