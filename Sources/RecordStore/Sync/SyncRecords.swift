/// The store's own system records for sync (FORMAT.md §10.3): records whose names start with
/// `_`, which CloudKit's naming rule keeps out of every app's requests, written only by sync
/// writes (``Database/syncWrite(in:_:)``), in the zone whose state they describe — so that they
/// are committed atomically with the records they are about.
///
/// - `_sync.zone` (type `SyncZone`): the zone is synced. Its presence turns on change tracking
///   for the zone (every app commit records its pending changes, ``PendingChange``); its fields
///   hold the remote's zone change token and the engine's progress.
/// - `_sync.database` (type `SyncDatabase`, in the default zone): the remote's database change token.
/// - `_sync.p.<record name>` (type `SyncPending`): one record's pending change
///   (`_sync.h.<hash>` for names too long to prefix).
package enum SyncRecords {
    /// The record whose presence makes a zone synced (change tracking on).
    package static let zoneStateName = "_sync.zone"
    package static let zoneStateType = "SyncZone"
    /// The record holding the remote's database change token, in the default zone.
    package static let databaseStateName = "_sync.database"
    package static let databaseStateType = "SyncDatabase"
    /// The type of pending-change records.
    package static let pendingType = "SyncPending"

    private static let pendingPrefix = "_sync.p."
    private static let hashedPrefix = "_sync.h."

    /// Whether `name` may be a system record's: it starts with `_`, which apps cannot use
    /// (only `_sync.…` names are the store's; the rest are refused everywhere).
    package static func isSystemName(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: "_")
    }

    /// The name of the record holding `recordName`'s pending change: the name behind a prefix,
    /// or, for a name too long for that, a 128-bit hash of it (the record holds the full name).
    package static func pendingName(for recordName: String) -> String {
        if recordName.utf8.count + pendingPrefix.utf8.count <= RecordLimits.maximumNameLength {
            return pendingPrefix + recordName
        }
        return hashedPrefix + hex(fnv1a(recordName.utf8, seed: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(recordName.utf8.reversed(), seed: 0x8422_2325_cbf2_9ce4))
    }

    private static func fnv1a(_ bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
