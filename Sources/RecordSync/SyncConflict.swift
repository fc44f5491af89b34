import Foundation
import RecordStore

/// A local save that met a newer version on the remote: the three records a merge needs, as
/// CloudKit's `serverRecordChanged` error carries them.
public struct SyncConflict: Sendable {
    /// The record as the remote has it now.
    public var serverRecord: Record
    /// The local record, as it would have been sent.
    public var localRecord: Record
    /// The remote version the local edits started from; nil when the local record was new (it
    /// met a record of the same name) or the remote no longer has that version.
    public var ancestorRecord: Record?
    /// The keys changed locally since the record was last in step with the remote.
    public var localChangedKeys: [String]

    /// A conflict, as the engine hands one to a resolver (for an app's tests of its resolver).
    public init(serverRecord: Record, localRecord: Record, ancestorRecord: Record?, localChangedKeys: [String]) {
        self.serverRecord = serverRecord
        self.localRecord = localRecord
        self.ancestorRecord = ancestorRecord
        self.localChangedKeys = localChangedKeys
    }
}

/// Decides a conflict: returns the record to save (its fields are what matters; the engine
/// saves them over the server's version). The default is ``RecordMerge/threeWay(_:)``.
public typealias ConflictResolver = @Sendable (SyncConflict) async throws -> Record
