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
        /// The zone's latest client change token, if any.
        var clientToken: ClientChangeTokenMark?
        /// Where its deleted records' latest deletes lie; not complete from a file before version 7.
        var deleted = DeletedNames(complete: false)
    }

    static let directoryName = "snapshots"
    static let fileName = "key-index.mapped"
    /// The key index checkpoint of versions up to 4, which a checkpoint removes.
    static let formerFileName = "key-index.snapshot"

    /// Writes the zones' indexes, each covering its log below `offset`, to `path`, with the zones'
    /// client change tokens and deleted names (`deleted`; a zone missing there is written not
    /// complete), as version 7. `version` forces an earlier one, without the sections it lacks
    /// (tests of reading and refusing them).
    static func write(
        _ zones: [(name: String, incarnation: Int64, offset: Int64, records: KeyIndex)],
        clientTokens: [String: ClientChangeTokenMark] = [:], deleted: [String: DeletedNames] = [:], storeID: [UInt8], to path: String,
        version: UInt64? = nil
    ) throws {
        let version = version ?? Header.currentVersion
        try LogError.translating {
            try DurableFile.write(to: path) { file in
                var writer = ViewSnapshotWriter(file: file)
                try writer.startSection(Section.header)
                try writer.write(meta: Header(version: version, zoneCount: zones.count))
                for zone in zones { try zone.records.writeSnapshot(zoneName: zone.name, to: &writer) }
                if version >= Header.versionWithClientTokens {
                    try writer.startSection(TrailingSection.clientChangeTokens)
                    var bytes: [UInt8] = []
                    for zone in zones { Self.append(clientTokens[zone.name], to: &bytes) }
                    try bytes.withUnsafeBytes { try writer.write($0) }
                }
                if version >= Header.currentVersion {
                    try writer.startSection(DeletedNamesSection.deletedNames)
                    var bytes: [UInt8] = []
                    for zone in zones { (deleted[zone.name] ?? DeletedNames(complete: false)).appendSnapshot(to: &bytes) }
                    try bytes.withUnsafeBytes { try writer.write($0) }
                }
                try writer.finish(storeID: storeID, zones: zones.map { ($0.name, $0.incarnation, $0.offset) })
            }
        }
    }

    /// A zone's entry of the client change tokens section: the offset of the event carrying the
    /// token (−1: none), the token's length, its bytes; little-endian.
    private static func append(_ token: ClientChangeTokenMark?, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: (token?.offset ?? -1).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(token?.data.count ?? 0).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: token?.data ?? [])
    }

    /// The zones' client change tokens, in the zones' order, from the section's bytes; nil when
    /// they do not add up to `count` entries exactly.
    private static func clientTokens(_ bytes: UnsafeRawBufferPointer, count: Int) -> [ClientChangeTokenMark?]? {
        var tokens: [ClientChangeTokenMark?] = []
        var position = 0
        while tokens.count < count {
            guard bytes.count - position >= 12 else { return nil }
            let offset = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: Int64.self))
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self)))
            position += 12
            guard length <= bytes.count - position, (offset >= 0) == (length > 0) else { return nil }
            tokens.append(offset < 0 ? nil : ClientChangeTokenMark(data: Array(bytes[position..<(position + length)]), offset: offset))
            position += length
        }
        return position == bytes.count ? tokens : nil
    }

    /// The zones of the snapshot at `path`, by name; nil when there is none, or it is damaged or
    /// not one (the reason is `reject`ed).
    static func read(path: String, reject: (String) -> Void) -> (storeID: [UInt8], zones: [String: Zone])? {
        readMapped(path: path, reject: reject).map { ($0.storeID, $0.zones) }
    }

    /// As ``read(path:reject:)``, with the file it mapped: whose path may have come to name
    /// another file since (``MappedFile/isStillNamed()``).
    static func readMapped(path: String, reject: (String) -> Void) -> (storeID: [UInt8], zones: [String: Zone], file: MappedFile)? {
        guard let snapshot = MappedViewSnapshot.open(path: path, reject: reject) else { return nil }
        guard let sections = snapshot.sections(Section.self), let header = sections.meta(.header, as: Header.self),
            header.zoneCount == snapshot.zones.count,
            snapshot.sectionCount == Section.count + header.zoneCount * ZoneSection.count + header.trailingSectionCount
        else {
            reject("it is not a key index snapshot of version \(Header.readVersions.lowerBound) to \(Header.readVersions.upperBound)")
            return nil
        }
        let zoneEnd = Section.count + header.zoneCount * ZoneSection.count
        var tokens = [ClientChangeTokenMark?](repeating: nil, count: header.zoneCount)
        if header.version >= Header.versionWithClientTokens {
            guard let trailing = snapshot.sections(TrailingSection.self, from: zoneEnd),
                let read = clientTokens(trailing.bytes(.clientChangeTokens), count: header.zoneCount)
            else {
                reject("its client change tokens do not fit together")
                return nil
            }
            tokens = read
        }
        var deleted = [DeletedNames](repeating: DeletedNames(complete: false), count: header.zoneCount)
        if header.version >= Header.currentVersion {
            guard let section = snapshot.sections(DeletedNamesSection.self, from: zoneEnd + TrailingSection.count),
                let read = DeletedNames.readSnapshot(section.bytes(.deletedNames), count: header.zoneCount)
            else {
                reject("its deleted names do not fit together")
                return nil
            }
            deleted = read
        }
        var zones: [String: Zone] = [:]
        for (position, first) in stride(from: Section.count, to: zoneEnd, by: ZoneSection.count).enumerated() {
            guard let sections = snapshot.sections(ZoneSection.self, from: first), let (name, index) = KeyIndex.read(sections),
                let covered = snapshot.zones[name], zones[name] == nil
            else {
                reject("a zone's tables do not fit together")
                return nil
            }
            zones[name] = Zone(covered: covered, records: index, clientToken: tokens[position], deleted: deleted[position])
        }
        return (snapshot.storeID, zones, snapshot.mapping)
    }
}
