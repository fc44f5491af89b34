import Foundation
import StorageKit

/// The store's decoders of untrusted bytes, each run to its end, for the fuzz targets
/// (`Tools/fuzz`) and their regression tests: they see only `package` API, and these decoders'
/// types are the module's own. Each returns a summary that needs no internal type, and checks
/// what must hold of anything the decoder accepts.
package enum UntrustedBytes {
    /// Decodes `bytes` as a change token of the store `storeID`: the zone names it holds (one for
    /// a zone token), or nil when it is refused. A token that is accepted encodes back to exactly
    /// `bytes`; `roundTrips` says whether it did.
    package static func decodeChangeToken(_ bytes: [UInt8], storeID: [UInt8]) -> (zones: [String], roundTrips: Bool)? {
        let token = ServerChangeToken(data: Data(bytes))
        guard let content = try? TokenContent.decode(token, storeID: storeID) else { return nil }
        let names: [String]
        switch content {
        case .zone(let entry, _): names = [entry.zoneName]
        case .database(let entries): names = entries.map(\.zoneName)
        }
        return (names, content.encode(storeID: storeID).data == token.data)
    }

    /// The bytes of a well-formed change token: a zone token for one entry with `database` false,
    /// else a database token (for seed corpora).
    package static func changeToken(
        _ entries: [(zoneName: String, incarnation: Int64, offset: Int64)], database: Bool, storeID: [UInt8]
    ) -> [UInt8] {
        let decoded = entries.map {
            TokenContent.Entry(zoneName: $0.zoneName, position: ZonePosition(incarnation: $0.incarnation, offset: $0.offset))
        }
        let content: TokenContent = database || decoded.count != 1 ? .database(decoded) : .zone(decoded[0], dropStamp: nil)
        return [UInt8](content.encode(storeID: storeID).data)
    }

    /// Reads the key index checkpoint at `path` as an open does: the number of zones and of
    /// records it holds, or nil when the file is ignored (the reason is `reject`ed).
    package static func readKeyIndexSnapshot(path: String, reject: (String) -> Void = { _ in }) -> (zones: Int, records: Int)? {
        guard let (_, zones) = KeyIndexSnapshot.read(path: path, reject: reject) else { return nil }
        return (zones.count, zones.values.reduce(0) { $0 + $1.records.count })
    }

    /// Reads the key index checkpoint at `path` as ``readKeyIndexSnapshot(path:reject:)`` does
    /// and, when it is read, uses each zone's index as a store does after such an open: every
    /// live record looked up by name and by the records that cascade to it, the scans by type,
    /// then the replay of a tail over the mapped arrays (a new record with cascade targets,
    /// edits, deletes) and the next checkpoint written to `rewritePath`. Returns what the read
    /// returns.
    @discardableResult
    package static func useKeyIndexSnapshot(path: String, rewritePath: String) -> (zones: Int, records: Int)? {
        guard let (storeID, zones) = KeyIndexSnapshot.read(path: path, reject: { _ in }) else { return nil }
        var used: [(name: String, incarnation: Int64, offset: Int64, records: KeyIndex)] = []
        for (name, zone) in zones.sorted(by: { $0.key < $1.key }) {
            var index = zone.records
            var live: [String] = []
            for type in index.types.names { live += index.names(ofType: type) }
            for name in live {
                _ = index[name]
                _ = index.referrers(of: name)
            }
            _ = index.liveRecordsByType
            let target = live.first ?? "fuzz-target"
            index.save(name: "fuzz-new", recordType: "FuzzType", offset: 1, creationMillis: 0, targets: CascadeTargets([target, "fuzz-other"]))
            for (step, name) in live.prefix(4).enumerated() {
                index.save(name: name, recordType: step.isMultiple(of: 2) ? "FuzzType" : index.types.name(0), offset: 2, creationMillis: 0, targets: CascadeTargets(single: target))
            }
            for name in live.prefix(8) + ["fuzz-new", "fuzz-absent"] { index.delete(name: name) }
            _ = index.referrers(of: target)
            _ = index.names(ofType: "FuzzType")
            used.append((name, zone.covered.incarnation, zone.covered.offset + 1, index))
        }
        try? KeyIndexSnapshot.write(used, storeID: storeID, to: rewritePath)
        return (zones.count, zones.values.reduce(0) { $0 + $1.records.count })
    }

    /// Decodes `bytes` as the JSON snapshot of `View` (`view-<name>.snapshot`: the JSON, then its
    /// CRC-32C) as a store's open does: the view, the store ID, and each zone's position (sorted
    /// by name); nil when the open ignores the file and rebuilds the view by replay.
    package static func decodeJSONViewSnapshot<View: MaterializedView>(
        _ bytes: [UInt8], as type: View.Type
    ) -> (view: View, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)])? {
        guard let snapshot = ViewSnapshot<View>.decode(bytes) else { return nil }
        let zones = snapshot.zones.sorted { $0.key < $1.key }.map { (name: $0.key, incarnation: $0.value.incarnation, offset: $0.value.offset) }
        return (snapshot.view, snapshot.storeID, zones)
    }

    /// Writes `view`'s JSON snapshot to `directory`/snapshots/ as a checkpoint does, and reads the
    /// file again as the next open would: what a view read from a damaged snapshot writes at the
    /// next checkpoint, or nil when that read ignores it.
    package static func rewriteJSONViewSnapshot<View: MaterializedView>(
        _ view: View, directory: String, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)]
    ) throws -> (view: View, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)])? {
        try Database.writeJSONSnapshot(ViewSnapshot.encodeView(view), name: View.name, directory: directory, storeID: storeID, zones: zones)
        return try DurableFile.read(ViewSnapshot<View>.path(directory: directory)).flatMap { decodeJSONViewSnapshot($0, as: View.self) }
    }

    /// Opens the mapped view snapshot at `path` as a store's open does (trailer, footer, every
    /// section's bounds and every block's CRC-32C), for the view to read its sections; nil when
    /// the file is ignored (the reason is `reject`ed) and the view is rebuilt by replay.
    package static func openViewSnapshot(path: String, reject: (String) -> Void = { _ in }) -> MappedViewSnapshot? {
        MappedViewSnapshot.open(path: path, reject: reject)
    }

    /// Writes `view`'s mapped snapshot to `directory`/snapshots/ as a checkpoint does, and
    /// opens it again as the next open would: what a view read from a damaged snapshot writes
    /// at the next checkpoint, or nil when that open ignores it.
    package static func rewriteViewSnapshot(_ view: some MappedSnapshotView, directory: String) throws -> MappedViewSnapshot? {
        try Database.writeMappedSnapshot(view, directory: directory, storeID: [UInt8](repeating: 0, count: 16), zones: [])
        return MappedViewSnapshot.open(path: Database.mappedSnapshotPath(directory: directory, name: type(of: view).name)) { _ in }
    }
}
