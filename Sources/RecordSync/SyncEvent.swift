import Foundation
import RecordStore

/// What a ``SyncEngine`` did, in order, as its ``SyncEngine/events()`` stream tells it.
public enum SyncEvent: Sendable, Hashable {
    /// A fetch of the remote's changes starts.
    case willFetchChanges
    /// The remote's zones changed and deleted since the last fetch.
    case fetchedDatabaseChanges(changedZones: [ZoneID], deletedZones: [ZoneID])
    /// A page of a zone's changes was applied locally, in one commit with its token. `skipped`
    /// holds the records left as they are because a local change is pending (the send merges).
    case fetchedZoneChanges(ZoneID, saved: [RecordID], deleted: [RecordID], skipped: [RecordID], moreComing: Bool)
    /// A zone the remote deleted was deleted locally.
    case zoneDeleted(ZoneID)
    /// The zone's token expired (the remote compacted its log): the zone is fetched from
    /// scratch and reconciled.
    case tokenExpired(ZoneID)
    /// After a refetch from scratch: the local records the remote no longer has were deleted.
    case reconciled(ZoneID, removed: [RecordID])
    /// The fetch ended.
    case didFetchChanges
    /// A batch of pending changes is about to be sent; `batch` is its client change token, which
    /// the answer's event repeats.
    case willSendChanges(ZoneID, batch: Data, count: Int)
    /// The remote answered the batch whose client change token is `batch`: what it saved and
    /// deleted, and what failed (kept pending, unless the failure says the record is gone remotely).
    case sentChanges(ZoneID, batch: Data, saved: [RecordID], deleted: [RecordID], failed: [RecordID: RecordStoreError])
    /// A save met a newer version on the remote and was merged (``SyncConflict``).
    case conflictResolved(RecordID)
    /// A record saved locally was found deleted on the remote (or its parent was): the delete
    /// won and the local copy was removed.
    case remoteDeletionWon(RecordID)
    /// The engine's state (tokens, acknowledgements) was committed locally for this zone.
    case stateSaved(ZoneID)
    /// An automatic round failed; it is retried.
    case failed(String)
}
