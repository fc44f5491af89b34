import Foundation
import RecordStore

/// What a ``SyncEngine`` needs of the database it keeps a local store in step with: CloudKit's
/// server-side calls, as a `Database` answers them.
///
/// Two kinds conform: a RecordStore `Database` (another store in the same process: a device
/// syncing with a store directory, or tests), and `HTTPRemoteDatabase`, which talks to
/// `recordlog-server`. Errors are `RecordStoreError`s with CloudKit's codes either way, so the
/// engine cannot tell one remote from the other.
///
/// ```swift
/// let remote: any RemoteDatabase = try await Database(directory: "/srv/notes")
/// let changes = try await remote.fetchDatabaseChanges(since: nil)
/// ```
public protocol RemoteDatabase: Sendable {
    /// The most items (saves plus deletes) one ``modifyRecords(saving:deleting:savePolicy:atomically:clientChangeTokenData:)``
    /// call may hold; CloudKit's is 400.
    var maximumItemsPerRequest: Int { get }

    /// Saves and deletes records, each zone's part as one atomic commit (as
    /// `Database.modifyRecords`). A request that repeats the client change token of the zone's
    /// latest commit is a retry: it writes nothing and answers with that commit's results.
    ///
    /// - Throws: `partialFailure` (atomic requests), `limitExceeded`, `invalidArguments`, or a
    ///   transport error of the remote.
    func modifyRecords(
        saving: [Record], deleting: [RecordID], savePolicy: SavePolicy, atomically: Bool, clientChangeTokenData: Data?
    ) async throws -> ModifyResult

    /// The zones changed and deleted since `token` (every zone when nil).
    func fetchDatabaseChanges(since token: ServerChangeToken?) async throws -> DatabaseChanges

    /// The changes of several zones, each with its own token, limit and desired keys; each zone's
    /// result is its own (a page, or `zoneNotFound`, `changeTokenExpired`, …).
    func fetchZoneChanges(
        inZonesWith zoneIDs: [ZoneID], configurations: [ZoneID: ZoneChangesConfiguration]
    ) async throws -> [ZoneID: Result<ZoneChanges, RecordStoreError>]

    /// Every zone, sorted by name.
    func allRecordZones() async throws -> [RecordZone]

    /// Creates the zone, or returns it as it is when it exists.
    @discardableResult
    func save(_ zone: RecordZone) async throws -> RecordZone

    /// Deletes the zone and every record in it.
    ///
    /// - Throws: `zoneNotFound`.
    func deleteZone(_ zoneID: ZoneID) async throws

    /// Saves a subscription, replacing one with the same ID.
    @discardableResult
    func save(_ subscription: Subscription) async throws -> Subscription

    /// Deletes a subscription; its notification streams end.
    ///
    /// - Throws: `unknownItem`.
    func deleteSubscription(_ id: String) async throws

    /// Every saved subscription, sorted by ID.
    func allSubscriptions() async throws -> [Subscription]

    /// The notifications of a saved subscription from now on, each sent after its commit is
    /// durable. The stream ends when the subscription is deleted, the remote closes, or (over a
    /// network) the connection drops: a client then reconnects and fetches changes from its
    /// tokens, which misses nothing.
    ///
    /// - Throws: `unknownItem` when there is no such subscription.
    func notifications(for subscriptionID: String) async throws -> AsyncStream<SubscriptionNotification>
}

extension Database: RemoteDatabase {}
