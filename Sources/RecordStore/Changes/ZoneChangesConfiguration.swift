/// How to fetch one zone's changes in ``Database/fetchZoneChanges(inZonesWith:configurations:)``,
/// as CloudKit's `CKFetchRecordZoneChangesOperation.ZoneConfiguration`.
public struct ZoneChangesConfiguration: Sendable, Hashable {
    /// Where the changes start: the token the last fetch of the zone returned; nil for all.
    public var previousServerChangeToken: ServerChangeToken?
    /// The most records (saved or deleted) in the zone's page; nil or 0 for as many as possible.
    public var resultsLimit: Int?
    /// The fields of the changed records to return; nil for all, `[]` for system fields only.
    public var desiredKeys: [String]?

    /// A configuration; the defaults fetch every change with every field.
    public init(previousServerChangeToken: ServerChangeToken? = nil, resultsLimit: Int? = nil, desiredKeys: [String]? = nil) {
        self.previousServerChangeToken = previousServerChangeToken
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
    }
}
