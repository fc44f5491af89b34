import RecordLog

extension StateSnapshot {
    /// Decodes a snapshot; nil for anything but a whole, valid one of this version.
    init?(bytes: [UInt8]) {
        let headerSize = Self.magic.count + 1 + 16 + 4
        guard bytes.count >= headerSize + 4, bytes.starts(with: Self.magic), bytes[Self.magic.count] == Self.version else {
            return nil
        }
        guard let decoded = bytes.withUnsafeBytes({ Self.decode($0) }) else { return nil }
        self = decoded
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) -> StateSnapshot? {
        let end = bytes.count - 4
        var tail = SnapshotReader(bytes: bytes, position: end, end: bytes.count)
        guard tail.integer(UInt32.self) == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<end])) else { return nil }
        let storeStart = magic.count + 1
        var reader = SnapshotReader(bytes: bytes, position: storeStart + 16, end: end)
        guard let zoneCount = reader.count(itemSize: 2 + 8 + 8 + 4 * 5) else { return nil }
        var zones: [Zone] = []
        for _ in 0..<zoneCount {
            guard let zone = decodeZone(&reader) else { return nil }
            zones.append(zone)
        }
        guard reader.position == end else { return nil }
        return StateSnapshot(storeID: Array(bytes[storeStart..<(storeStart + 16)]), zones: zones)
    }

    private static func decodeZone(_ reader: inout SnapshotReader) -> Zone? {
        guard let name = reader.string(), let incarnation = reader.integer(Int64.self), let covered = reader.integer(Int64.self),
            let types = reader.strings(), let targets = reader.strings(), let count = reader.count(itemSize: entrySize),
            let nameBytes = reader.count(itemSize: 1)
        else { return nil }
        var tables = KeyIndex.Tables(types: types, targets: targets)
        tables.names.reserveCapacity(count)
        tables.entries.reserveCapacity(count)
        var names = SnapshotReader(bytes: reader.bytes, position: reader.position, end: reader.position + nameBytes)
        reader.position += nameBytes
        for _ in 0..<count {
            guard let length = reader.integer(UInt16.self), let name = names.string(length: Int(length)),
                let typeID = reader.integer(UInt32.self), let target = reader.integer(UInt32.self),
                let offset = reader.integer(Int64.self), let creation = reader.integer(Int64.self),
                offset >= 0, offset < covered, creation == RecordEntry.noCreationDate || MillisecondDate.isInRange(creation)
            else { return nil }
            tables.names.append(name)
            tables.entries.append(
                RecordEntry(
                    offset: offset, creationMillis: creation, typeID: Int32(bitPattern: typeID),
                    target: target == noTarget ? RecordEntry.noTarget : Int32(bitPattern: target)))
        }
        guard names.remaining == 0, let moreCount = reader.count(itemSize: 12) else { return nil }
        for _ in 0..<moreCount {
            guard let slot = reader.integer(UInt32.self), let idCount = reader.count(itemSize: 4), idCount > 0,
                tables.moreTargets[Int32(bitPattern: slot)] == nil
            else { return nil }
            var ids: [Int32] = []
            for _ in 0..<idCount {
                guard let id = reader.integer(UInt32.self) else { return nil }
                ids.append(Int32(bitPattern: id))
            }
            tables.moreTargets[Int32(bitPattern: slot)] = ids
        }
        return Zone(name: name, incarnation: incarnation, coveredOffset: covered, records: tables)
    }
}
