import Foundation
import RecordLog

/// The key index checkpoint: every zone's key index (record names, fixed-size entries, record
/// types, cascade targets) and the offset of its log it covers, so an open replays only the tail.
///
/// Binary, big-endian, CRC-protected; the layout is in FORMAT.md. It is laid out for loading:
/// the names in one run of bytes, the entries as fixed-size rows. A snapshot that is missing,
/// damaged, of another version or store, or that covers more than a zone's log now holds is
/// ignored and the zone is replayed from its start: slower, never wrong.
struct StateSnapshot {
    struct Zone {
        var name: String
        var incarnation: Int64
        /// Every event below this offset is reflected in `records`.
        var coveredOffset: Int64
        var records: KeyIndex.Tables
    }

    static let magic: [UInt8] = Array("RLSS".utf8)
    static let version: UInt8 = 4
    static let directoryName = "snapshots"
    static let fileName = "key-index.snapshot"
    /// The bytes of one entry row: name length, type id, first target id, offset, creation date.
    static let entrySize = 2 + 4 + 4 + 8 + 8
    /// The first-target id of an entry without one.
    static let noTarget = UInt32.max

    var storeID: [UInt8]
    var zones: [Zone]

    init(storeID: [UInt8], zones: [Zone]) {
        self.storeID = storeID
        self.zones = zones
    }

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.append(Self.version)
        bytes += storeID
        TokenBytes.append(UInt32(zones.count), to: &bytes)
        for zone in zones { Self.append(zone, to: &bytes) }
        TokenBytes.append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    private static func append(_ zone: Zone, to bytes: inout [UInt8]) {
        let tables = zone.records
        appendString(zone.name, to: &bytes)
        TokenBytes.append(UInt64(bitPattern: zone.incarnation), to: &bytes)
        TokenBytes.append(UInt64(bitPattern: zone.coveredOffset), to: &bytes)
        appendStrings(tables.types, to: &bytes)
        appendStrings(tables.targets, to: &bytes)
        TokenBytes.append(UInt32(tables.entries.count), to: &bytes)
        let names = tables.names.map { Array($0.utf8.prefix(Int(UInt16.max))) }
        let nameBytes: Int = names.reduce(0) { $0 + $1.count }
        TokenBytes.append(UInt32(nameBytes), to: &bytes)
        let entryBytes: Int = tables.entries.count * entrySize
        bytes.reserveCapacity(bytes.count + nameBytes + entryBytes + 64)
        for name in names { bytes += name }
        for (name, entry) in zip(names, tables.entries) {
            TokenBytes.append(UInt16(name.count), to: &bytes)
            TokenBytes.append(UInt32(bitPattern: entry.typeID), to: &bytes)
            TokenBytes.append(entry.target == RecordEntry.noTarget ? noTarget : UInt32(bitPattern: entry.target), to: &bytes)
            TokenBytes.append(UInt64(bitPattern: entry.offset), to: &bytes)
            TokenBytes.append(UInt64(bitPattern: entry.creationMillis), to: &bytes)
        }
        TokenBytes.append(UInt32(tables.moreTargets.count), to: &bytes)
        for (slot, ids) in tables.moreTargets.sorted(by: { $0.key < $1.key }) {
            TokenBytes.append(UInt32(bitPattern: slot), to: &bytes)
            TokenBytes.append(UInt32(ids.count), to: &bytes)
            for id in ids { TokenBytes.append(UInt32(bitPattern: id), to: &bytes) }
        }
    }

    private static func appendStrings(_ strings: [String], to bytes: inout [UInt8]) {
        TokenBytes.append(UInt32(strings.count), to: &bytes)
        for string in strings { appendString(string, to: &bytes) }
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        TokenBytes.append(UInt16(truncatingIfNeeded: utf8.count), to: &bytes)
        bytes += utf8.prefix(Int(UInt16.max))
    }
}
