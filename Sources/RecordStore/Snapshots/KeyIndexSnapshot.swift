import RecordLog
import StorageKit

/// The key index checkpoint (`snapshots/key-index.mapped`, FORMAT.md §12.2): every zone's key
/// index and the offset of its log it covers, so an open replays only the tail. A mapped snapshot
/// (§12's sections, footer and trailer): section 0 holds the format and the zone count, then each
/// zone's index takes ``KeyIndex/sectionCount`` sections, read in place.
///
/// A snapshot that is missing, damaged, of another version or store, or that covers more than a
/// zone's log now holds is ignored and the zone is replayed from its start: slower, never wrong.
enum KeyIndexSnapshot {
    struct Zone {
        /// Every event below this position's offset is reflected in `records`.
        var covered: ZonePosition
        var records: KeyIndex
    }

    /// The first value of section 0.
    static let version: UInt64 = 5
    static let directoryName = "snapshots"
    static let fileName = "key-index.mapped"
    /// The key index checkpoint of versions up to 4, which a checkpoint removes.
    static let formerFileName = "key-index.snapshot"

    /// Writes the zones' indexes, each covering its log below `offset`, to `path`.
    static func write(
        _ zones: [(name: String, incarnation: Int64, offset: Int64, records: KeyIndex)], storeID: [UInt8], to path: String
    ) throws {
        try LogError.translating {
            try DurableFile.write(to: path) { file in
                var writer = ViewSnapshotWriter(file: file)
                try writer.startSection()
                try [version, UInt64(zones.count)].withUnsafeBufferPointer { try writer.write($0) }
                for zone in zones { try zone.records.writeSnapshot(zoneName: zone.name, to: &writer) }
                try writer.finish(storeID: storeID, zones: zones.map { ($0.name, $0.incarnation, $0.offset) })
            }
        }
    }

    /// The zones of the snapshot at `path`, by name; nil when there is none, or it is damaged or
    /// not one (the reason is `reject`ed).
    static func read(path: String, reject: (String) -> Void) -> (storeID: [UInt8], zones: [String: Zone])? {
        guard let snapshot = MappedViewSnapshot.open(path: path, reject: reject) else { return nil }
        guard let header = snapshot.array(0, of: UInt64.self), header.count == 2, header[0] == version,
            header[1] == UInt64(snapshot.zones.count), snapshot.sectionCount == 1 + snapshot.zones.count * KeyIndex.sectionCount
        else {
            reject("it is not a key index snapshot of version \(version)")
            return nil
        }
        var zones: [String: Zone] = [:]
        for first in stride(from: 1, to: snapshot.sectionCount, by: KeyIndex.sectionCount) {
            guard let (name, index) = KeyIndex.read(snapshot, from: first), let position = snapshot.zones[name], zones[name] == nil else {
                reject("a zone's tables do not fit together")
                return nil
            }
            zones[name] = Zone(covered: position, records: index)
        }
        return (snapshot.storeID, zones)
    }
}
