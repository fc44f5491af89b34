/// A zone's ``DeletedNames`` in the key index checkpoint's deleted-names section (FORMAT.md
/// §12.2), little-endian: whether it is complete (uint64, 0 or 1), its entry count C (uint64),
/// then C pairs of the name hash (uint64) and the delete's offset (int64), by ascending hash.
///
/// A checkpoint holds the entries left when it was written, the deletes compaction had dropped
/// by then forgotten. One written before a later compaction still holds the deletes that
/// compaction dropped: an open forgets them (those below the zone's expiry offset), and a tool
/// that reads the file alone (``RecordLocator``) finds their offsets removed, where a walk ends.
extension DeletedNames {
    /// Appends this zone's part of the section to `bytes`.
    func appendSnapshot(to bytes: inout [UInt8]) {
        func append(_ word: UInt64) { withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) } }
        append(isComplete ? 1 : 0)
        append(UInt64(count))
        for (hash, offset) in entries.sorted(by: { $0.key < $1.key }) {
            append(hash)
            append(UInt64(bitPattern: offset))
        }
    }

    /// The `count` zones' parts of the section, in order; nil unless they fill it exactly, with
    /// flags 0 or 1, hashes ascending and offsets not negative.
    static func readSnapshot(_ bytes: UnsafeRawBufferPointer, count: Int) -> [DeletedNames]? {
        var position = 0
        func word() -> UInt64? {
            guard bytes.count - position >= 8 else { return nil }
            defer { position += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        }
        var zones: [DeletedNames] = []
        while zones.count < count {
            guard let complete = word(), complete <= 1, let entries = word(), entries <= UInt64((bytes.count - position) / 16) else { return nil }
            var offsets: [UInt64: Int64] = [:]
            offsets.reserveCapacity(Int(entries))
            var last: UInt64?
            for _ in 0..<entries {
                guard let hash = word(), let offset = word().map({ Int64(bitPattern: $0) }), offset >= 0, last.map({ hash > $0 }) ?? true else { return nil }
                offsets[hash] = offset
                last = hash
            }
            zones.append(DeletedNames(offsets: offsets, complete: complete == 1))
        }
        return position == bytes.count ? zones : nil
    }
}
