import RecordLog
import StorageKit

/// The key index checkpoint (`snapshots/key-index.mapped`, FORMAT.md §12.2): every zone's key
/// index and the offset of its log it covers, so an open replays only the tail. A mapped snapshot
/// (§12's sections, footer and trailer): its ``Section/header`` holds the format and the zone
/// count, then each zone's index takes ``ZoneSection/count`` sections, read in place.
///
/// A snapshot that is missing, damaged, of another version or store, or that covers more than a
/// zone's log now holds is ignored and the zone is replayed from its start: slower, never wrong.
enum KeyIndexSnapshot {
    struct Zone {
        /// Every event below this position's offset is reflected in `records`.
        var covered: ZonePosition
        var records: KeyIndex
    }

    static let directoryName = "snapshots"
    static let fileName = "key-index.mapped"
    /// The key index checkpoint of versions up to 4, which a checkpoint removes.
    static let formerFileName = "key-index.snapshot"

    /// Writes the zones' indexes, each covering its log below `offset`, to `path`, under a
    /// header of `version` (another than the current one only in tests of refusing it).
    static func write(
        _ zones: [(name: String, incarnation: Int64, offset: Int64, records: KeyIndex)], storeID: [UInt8], to path: String,
        version: UInt64 = Header.currentVersion
    ) throws {
        try LogError.translating {
            try DurableFile.write(to: path) { file in
                var writer = ViewSnapshotWriter(file: file)
                try writer.startSection(Section.header)
                try writer.write(meta: Header(version: version, zoneCount: zones.count))
                for zone in zones { try zone.records.writeSnapshot(zoneName: zone.name, to: &writer) }
                try writer.finish(storeID: storeID, zones: zones.map { ($0.name, $0.incarnation, $0.offset) })
            }
        }
    }

    /// The zones of the snapshot at `path`, by name; nil when there is none, or it is damaged or
    /// not one (the reason is `reject`ed).
    static func read(path: String, reject: (String) -> Void) -> (storeID: [UInt8], zones: [String: Zone])? {
        guard let snapshot = MappedViewSnapshot.open(path: path, reject: reject) else { return nil }
        guard let sections = snapshot.sections(Section.self), let header = sections.meta(.header, as: Header.self),
            header.zoneCount == snapshot.zones.count, snapshot.sectionCount == Section.count + header.zoneCount * ZoneSection.count
        else {
            reject("it is not a key index snapshot of version \(Header.currentVersion)")
            return nil
        }
        var zones: [String: Zone] = [:]
        for first in stride(from: Section.count, to: snapshot.sectionCount, by: ZoneSection.count) {
            guard let sections = snapshot.sections(ZoneSection.self, from: first), let (name, index) = KeyIndex.read(sections),
                let position = snapshot.zones[name], zones[name] == nil
            else {
                reject("a zone's tables do not fit together")
                return nil
            }
            zones[name] = Zone(covered: position, records: index)
        }
        return (snapshot.storeID, zones)
    }
}
