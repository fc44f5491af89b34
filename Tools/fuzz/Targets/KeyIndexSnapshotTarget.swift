import Foundation
import RecordStore
import StorageKit

/// The key index checkpoint, as every open reads it: the input is the file. Each input is tried
/// as given and again resealed — every section's block CRCs and the footer's CRC made right for
/// the bytes as they are — so that the fuzzer gets past the checksums into the sections. Whatever
/// it holds, reading must refuse it or return the index, never trap.
enum KeyIndexSnapshotTarget {
    static func run(_ input: [UInt8]) {
        read(input)
        if let resealed = MappedSnapshotSeal.resealed(input), resealed != input { read(resealed) }
    }

    static func accepts(_ input: [UInt8]) -> Bool { read(input) }

    @discardableResult
    private static func read(_ bytes: [UInt8]) -> Bool {
        let path = Scratch.directory + "/key-index.mapped"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("fuzz: cannot write \(path)")
        }
        return UntrustedBytes.readKeyIndexSnapshot(path: path) != nil
    }

    static func seeds() async throws -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for withToken in [false, true] {
            let store = Scratch.freshDirectory("snapshot-seeds")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let database = try await Database(directory: store, durability: .noSyncUnsafe, logger: Scratch.silent)
            let notes = try await database.createZone(ZoneID(zoneName: "Notes"))
            var records: [Record] = []
            for index in 0..<5 {
                var note = Record(recordType: index.isMultiple(of: 2) ? "Note" : "Folder", recordID: RecordID(recordName: "r\(index)", zoneID: notes))
                note["title"] = .string("title \(index)")
                if index > 0 { note["parent"] = .reference(Reference(recordID: records[0].recordID, action: .deleteSelf)) }
                records.append(note)
            }
            _ = try await database.modifyRecords(
                saving: records, deleting: [], clientChangeTokenData: withToken ? Data("client-1".utf8) : nil)
            _ = try await database.save(Record(recordType: "Note", recordID: RecordID(recordName: "default-1")))
            _ = try await database.modifyRecords(saving: [], deleting: [records[4].recordID])
            try database.checkpoint()
            try database.close()
            let path = store + "/snapshots/key-index.mapped"
            seeds.append((withToken ? "two-zones-client-token" : "two-zones", [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        return seeds
    }
}

/// Recomputes the checksums of a mapped snapshot (FORMAT.md §12) for the bytes it holds.
enum MappedSnapshotSeal {
    static let trailerSize = 16
    static let blockSize = 1 << 20

    /// `bytes` with each section's block CRCs (where the footer's section lies inside the file)
    /// and the footer's CRC rewritten; nil when the bytes do not end in a trailer.
    static func resealed(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= trailerSize else { return nil }
        let trailer = bytes.count - trailerSize
        let footerLength = integer(bytes, at: trailer, size: 4)
        guard footerLength <= trailer else { return nil }
        let footerStart = trailer - footerLength
        var sealed = bytes
        // The footer: store ID, zones, then the sections with their block CRCs.
        var position = footerStart + 16
        guard position + 4 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
        let zoneCount = integer(bytes, at: position, size: 4)
        position += 4
        for _ in 0..<min(zoneCount, footerLength) {
            guard position + 2 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
            position += 2 + integer(bytes, at: position, size: 2) + 16
        }
        guard position + 4 <= trailer else { return finish(&sealed, footerStart: footerStart, trailer: trailer) }
        let sectionCount = integer(bytes, at: position, size: 4)
        position += 4
        for _ in 0..<min(sectionCount, footerLength) {
            guard position + 16 <= trailer else { break }
            let offset = integer(bytes, at: position, size: 8)
            let length = integer(bytes, at: position + 8, size: 8)
            position += 16
            guard offset >= 0, length >= 0, offset <= footerStart, length <= footerStart - offset else { break }
            var block = offset
            while block < offset + length, position + 4 <= trailer {
                let end = min(block + blockSize, offset + length)
                store(CRC32C.checksum(Array(bytes[block..<end])), in: &sealed, at: position)
                position += 4
                block = end
            }
        }
        return finish(&sealed, footerStart: footerStart, trailer: trailer)
    }

    private static func finish(_ sealed: inout [UInt8], footerStart: Int, trailer: Int) -> [UInt8] {
        store(CRC32C.checksum(Array(sealed[footerStart..<trailer])), in: &sealed, at: trailer + 4)
        return sealed
    }

    /// A big-endian integer of `size` bytes at `position`, as an Int clamped to Int.max / 2
    /// (a length that large is refused by the callers' bounds).
    private static func integer(_ bytes: [UInt8], at position: Int, size: Int) -> Int {
        guard position >= 0, position + size <= bytes.count else { return Int.max / 2 }
        let value = bytes[position..<(position + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value > UInt64(Int.max / 2) ? Int.max / 2 : Int(value)
    }

    private static func store(_ value: UInt32, in bytes: inout [UInt8], at position: Int) {
        guard position >= 0, position + 4 <= bytes.count else { return }
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
}
