import Foundation
import RecordStore

/// `POST changes/zone`: the changes of several zones, each from its own token, as
/// `Database.fetchZoneChanges(inZonesWith:configurations:)`.
package struct ZoneChangesRequest: Codable, Sendable {
    /// One zone's fetch: where it starts, how much, which fields.
    package struct Zone: Codable, Sendable {
        package var zoneID: ZoneID
        package var syncToken: ServerChangeToken?
        package var resultsLimit: Int?
        package var desiredKeys: [String]?

        package init(zoneID: ZoneID, configuration: ZoneChangesConfiguration?) {
            self.zoneID = zoneID
            syncToken = configuration?.previousServerChangeToken
            resultsLimit = configuration?.resultsLimit
            desiredKeys = configuration?.desiredKeys
        }

        package var configuration: ZoneChangesConfiguration {
            ZoneChangesConfiguration(previousServerChangeToken: syncToken, resultsLimit: resultsLimit, desiredKeys: desiredKeys)
        }
    }

    package var zones: [Zone]

    package init(zones: [Zone]) { self.zones = zones }
}

/// The answer to `changes/zone`: one result per zone asked for, a page or an error.
package struct ZoneChangesResponse: Codable, Sendable {
    /// A record deleted since the token.
    package struct Deletion: Codable, Sendable {
        package var recordID: RecordID
        package var recordType: String
    }

    /// One zone's page, or its error.
    package struct Zone: Codable, Sendable {
        package var zoneID: ZoneID
        package var records: [Record]?
        package var deletions: [Deletion]?
        package var syncToken: ServerChangeToken?
        package var moreComing: Bool?
        /// The zone's latest client change token, base64.
        package var clientChangeToken: String?
        package var error: ErrorBody?

        package init(zoneID: ZoneID, _ result: Result<ZoneChanges, RecordStoreError>) {
            self.zoneID = zoneID
            switch result {
            case .success(let changes):
                records = changes.changedRecords
                deletions = changes.deletions.map { Deletion(recordID: $0.recordID, recordType: $0.recordType) }
                syncToken = changes.changeToken
                moreComing = changes.moreComing
                clientChangeToken = changes.clientChangeTokenData?.base64EncodedString()
            case .failure(let error):
                self.error = ErrorBody(error)
            }
        }

        package var result: Result<ZoneChanges, RecordStoreError> {
            if let error {
                return .failure(error.recordStoreError ?? RecordStoreError(.internalError, error.reason, zoneID: zoneID))
            }
            guard let syncToken else {
                return .failure(RecordStoreError(.internalError, "The server answered no sync token for zone \(zoneID).", zoneID: zoneID))
            }
            return .success(
                ZoneChanges(
                    changedRecords: records ?? [],
                    deletions: (deletions ?? []).map { ZoneChanges.Deletion(recordID: $0.recordID, recordType: $0.recordType) },
                    changeToken: syncToken, moreComing: moreComing ?? false,
                    clientChangeTokenData: clientChangeToken.flatMap { Data(base64Encoded: $0) }))
        }
    }

    package var zones: [Zone]

    package init(zones: [Zone]) { self.zones = zones }
}
