import Foundation
import RecordStore

/// A synced zone's state, kept in the zone as its `_sync.zone` record (FORMAT.md §10.3) and
/// written in the same commit as the changes it accounts for.
struct ZoneSyncState: Sendable, Equatable {
    /// Where the next fetch of the remote's zone changes starts; nil for the beginning.
    var token: ServerChangeToken?
    /// The zone's records that existed before it was synced are being marked pending.
    var adopting = false
    /// A refetch from scratch after an expired token is under way: a crash restarts it.
    var reconciling = false

    private enum Field {
        static let token = "token"
        static let adopting = "adopting"
        static let reconciling = "reconciling"
    }

    init(token: ServerChangeToken? = nil, adopting: Bool = false, reconciling: Bool = false) {
        self.token = token
        self.adopting = adopting
        self.reconciling = reconciling
    }

    /// The state a `_sync.zone` record holds.
    init(_ record: Record) {
        if case .bytes(let bytes)? = record[Field.token] { token = ServerChangeToken(data: Data(bytes)) }
        if case .bool(let flag)? = record[Field.adopting] { adopting = flag }
        if case .bool(let flag)? = record[Field.reconciling] { reconciling = flag }
    }

    /// The `_sync.zone` record of `zoneID` holding this state (a sync write, replacing the last).
    func record(in zoneID: ZoneID, replacing current: Record?) -> Record {
        var record = Record(recordType: SyncRecords.zoneStateType, recordID: RecordID(recordName: SyncRecords.zoneStateName, zoneID: zoneID))
        if let token { record[Field.token] = .bytes([UInt8](token.data)) }
        if adopting { record[Field.adopting] = .bool(true) }
        if reconciling { record[Field.reconciling] = .bool(true) }
        for key in current?.allKeys() ?? [] where record[key] == nil { record[key] = nil }
        return record
    }

    /// The state of `zoneID` in `reader`'s zone; nil when the zone is not synced yet.
    static func read(_ reader: SyncZoneReader) throws -> ZoneSyncState? {
        try reader.record(named: SyncRecords.zoneStateName).map(ZoneSyncState.init)
    }
}

/// The remote's database change token, kept in the local default zone's `_sync.database` record.
enum DatabaseSyncState {
    private static let tokenField = "token"

    static func token(in reader: SyncZoneReader) throws -> ServerChangeToken? {
        guard case .bytes(let bytes)? = try reader.record(named: SyncRecords.databaseStateName)?[tokenField] else { return nil }
        return ServerChangeToken(data: Data(bytes))
    }

    static func record(token: ServerChangeToken) -> Record {
        var record = Record(recordType: SyncRecords.databaseStateType, recordID: RecordID(recordName: SyncRecords.databaseStateName, zoneID: .default))
        record[tokenField] = .bytes([UInt8](token.data))
        return record
    }
}
