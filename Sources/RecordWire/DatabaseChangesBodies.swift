import RecordStore

/// `POST changes/database`: the zones changed and deleted since a database token.
package struct DatabaseChangesRequest: Codable, Sendable {
    /// Absent for every zone.
    package var syncToken: ServerChangeToken?

    package init(syncToken: ServerChangeToken?) { self.syncToken = syncToken }
}

/// The answer to `changes/database`.
package struct DatabaseChangesResponse: Codable, Sendable {
    package var changedZones: [ZoneID]
    package var deletedZones: [ZoneID]
    package var syncToken: ServerChangeToken
    package var moreComing: Bool

    package init(_ changes: DatabaseChanges) {
        changedZones = changes.changedZones
        deletedZones = changes.deletedZones
        syncToken = changes.changeToken
        moreComing = changes.moreComing
    }

    package var changes: DatabaseChanges {
        DatabaseChanges(changedZones: changedZones, deletedZones: deletedZones, changeToken: syncToken, moreComing: moreComing)
    }
}
