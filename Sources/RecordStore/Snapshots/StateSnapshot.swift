import Foundation
import RecordLog

/// The key index checkpoint: every zone's live records (name, type, change tag, offset, creation
/// date, cascade targets) and the offset of its log it covers, so an open replays only the tail.
///
/// Binary, big-endian, CRC-protected; the layout is in FORMAT.md. A snapshot that is missing,
/// damaged, of another store, or that covers more than a zone's log now holds is ignored and the
/// zone is replayed from its start: slower, never wrong.
struct StateSnapshot {
    struct Zone {
        var name: String
        var incarnation: Int64
        /// Every event below this offset is reflected in `records`.
        var coveredOffset: Int64
        var records: [(name: String, entry: RecordEntry)]
        /// Every record type ever saved in the zone (queries for other types are `unknownItem`).
        var knownTypes: [String]
    }

    static let magic: [UInt8] = Array("RLSS".utf8)
    static let version: UInt8 = 3
    static let directoryName = "snapshots"
    static let fileName = "key-index.snapshot"

    var storeID: [UInt8]
    var zones: [Zone]

    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.append(Self.version)
        bytes += storeID
        TokenBytes.append(UInt32(zones.count), to: &bytes)
        for zone in zones {
            Self.appendString(zone.name, to: &bytes)
            TokenBytes.append(UInt64(bitPattern: zone.incarnation), to: &bytes)
            TokenBytes.append(UInt64(bitPattern: zone.coveredOffset), to: &bytes)
            TokenBytes.append(UInt32(zone.records.count), to: &bytes)
            for (name, entry) in zone.records {
                Self.appendString(name, to: &bytes)
                Self.appendString(entry.recordType, to: &bytes)
                Self.appendString(entry.changeTag, to: &bytes)
                TokenBytes.append(UInt64(bitPattern: entry.offset), to: &bytes)
                let millis = entry.creationDate.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? Int64.min
                TokenBytes.append(UInt64(bitPattern: millis), to: &bytes)
                TokenBytes.append(UInt32(entry.cascadeTargets.count), to: &bytes)
                for target in entry.cascadeTargets { Self.appendString(target, to: &bytes) }
            }
            TokenBytes.append(UInt32(zone.knownTypes.count), to: &bytes)
            for type in zone.knownTypes { Self.appendString(type, to: &bytes) }
        }
        TokenBytes.append(CRC32C.checksum(bytes), to: &bytes)
        return bytes
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        TokenBytes.append(UInt16(truncatingIfNeeded: utf8.count), to: &bytes)
        bytes += utf8.prefix(Int(UInt16.max))
    }

    /// Decodes a snapshot; nil for anything but a whole, valid one.
    init?(bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count + 1 + 16 + 4 + 4, Array(bytes.prefix(4)) == Self.magic,
            bytes[4] == Self.version
        else { return nil }
        let body = Array(bytes.dropLast(4))
        var tail = TokenBytes(bytes: bytes, position: bytes.count - 4)
        guard tail.uint32() == CRC32C.checksum(body) else { return nil }
        var reader = TokenBytes(bytes: body, position: 5)
        storeID = Array(body[5..<21])
        reader.position = 21
        guard let zoneCount = reader.uint32() else { return nil }
        var zones: [Zone] = []
        for _ in 0..<zoneCount {
            guard let name = reader.string(), let incarnation = reader.integer(UInt64.self),
                let covered = reader.integer(UInt64.self), let count = reader.uint32(), Int(count) <= body.count
            else { return nil }
            var records: [(String, RecordEntry)] = []
            records.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let recordName = reader.string(), let type = reader.string(), let tag = reader.string(),
                    let offset = reader.integer(UInt64.self), let millis = reader.integer(UInt64.self),
                    let targetCount = reader.integer(UInt32.self), Int(targetCount) <= body.count
                else { return nil }
                var targets: [String] = []
                for _ in 0..<targetCount {
                    guard let target = reader.string() else { return nil }
                    targets.append(target)
                }
                let creation = Int64(bitPattern: millis) == Int64.min ? nil : Date(timeIntervalSince1970: Double(Int64(bitPattern: millis)) / 1000)
                records.append(
                    (recordName, RecordEntry(recordType: type, changeTag: tag, offset: Int64(bitPattern: offset), cascadeTargets: targets, creationDate: creation)))
            }
            guard let typeCount = reader.uint32(), Int(typeCount) <= body.count else { return nil }
            var types: [String] = []
            for _ in 0..<typeCount {
                guard let type = reader.string() else { return nil }
                types.append(type)
            }
            zones.append(
                Zone(name: name, incarnation: Int64(bitPattern: incarnation), coveredOffset: Int64(bitPattern: covered), records: records, knownTypes: types))
        }
        guard reader.position == body.count else { return nil }
        self.zones = zones
    }

    init(storeID: [UInt8], zones: [Zone]) {
        self.storeID = storeID
        self.zones = zones
    }
}

extension TokenBytes {
    mutating func string() -> String? {
        guard let length = integer(UInt16.self), position + Int(length) <= bytes.count else { return nil }
        defer { position += Int(length) }
        return String(validating: bytes[position..<(position + Int(length))], as: UTF8.self)
    }
}
