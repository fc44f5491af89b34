import Foundation
import RecordStore

/// Field-level merges of a conflict.
public enum RecordMerge {
    /// The default merge: field by field against the ancestor. A key changed only locally takes
    /// the local value; changed only remotely, the remote's; changed on both sides to different
    /// values, the later edit's — each synced record carries who last edited it and when, as
    /// that device's clock read it — and at the same millisecond the greater device identity's:
    /// a rule every device computes alike, so merges converge. (A record without that stamp, an
    /// app's write to the remote directly, counts by its modification date, and a tie by value.)
    /// Without an ancestor, every key the remote has counts as changed remotely, and the local
    /// changed keys as changed locally. The result has the server's type.
    ///
    /// ```swift
    /// // ancestor: title "A", body "x"; local: title "B"; remote: body "y"
    /// RecordMerge.threeWay(conflict)   // title "B", body "y"
    /// ```
    public static func threeWay(_ conflict: SyncConflict) -> Record {
        let server = conflict.serverRecord
        let local = conflict.localRecord
        let ancestor = conflict.ancestorRecord
        var merged = server
        let keys = Set(server.allKeys()).union(local.allKeys()).union(ancestor?.allKeys() ?? []).union(conflict.localChangedKeys)
        let localChangedKeys = Set(conflict.localChangedKeys)
        for key in keys.sorted() {
            let mine = local[key]
            let theirs = server[key]
            let changedHere: Bool
            let changedThere: Bool
            if let ancestor {
                changedHere = !same(mine, ancestor[key])
                changedThere = !same(theirs, ancestor[key])
            } else {
                changedHere = localChangedKeys.contains(key)
                changedThere = theirs != nil
            }
            guard changedHere, !same(mine, theirs) else { continue }
            if !changedThere || localWins(mine, theirs, local: local, server: server) { merged[key] = mine }
        }
        return merged
    }

    /// Whether the local value wins a key changed on both sides.
    private static func localWins(_ mine: FieldValue?, _ theirs: FieldValue?, local: Record, server: Record) -> Bool {
        if let here = local.syncAuthor, let there = server.syncAuthor { return here.isLater(than: there) }
        let localTime = local.modificationDate.map { ($0.timeIntervalSince1970 * 1000).rounded() } ?? 0
        let serverTime = server.modificationDate.map { ($0.timeIntervalSince1970 * 1000).rounded() } ?? 0
        if localTime != serverTime { return localTime > serverTime }
        return order(mine).lexicographicallyPrecedes(order(theirs)) == false
    }

    private static func same(_ lhs: FieldValue?, _ rhs: FieldValue?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs == rhs
        default: false
        }
    }

    /// A value's place in a fixed order: its JSON encoding's bytes (a removed key first).
    private static func order(_ value: FieldValue?) -> [UInt8] {
        guard let value else { return [] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { [1] + [UInt8]($0) } ?? [1]
    }
}
