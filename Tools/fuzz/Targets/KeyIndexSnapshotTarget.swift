import Foundation
import RecordStore
import StorageKit

/// The key index checkpoint, as every open reads it: the input is the file. Each input is tried
/// as given and again resealed — every section's block CRCs and the footer's CRC made right for
/// the bytes as they are — so that the fuzzer gets past the checksums into the sections. Whatever
/// it holds, reading must refuse it or return the index, never trap; and an index it returns must
/// take what a store then does with it — lookups, scans, the replay of a tail, the next
/// checkpoint — without a trap or a read out of bounds (its values are checked where used).
enum KeyIndexSnapshotTarget {
    static func run(_ input: [UInt8]) { MappedSnapshotSeal.readAsGivenAndResealed(input) { read($0) } }

    static func accepts(_ input: [UInt8]) -> Bool { read(input) }

    @discardableResult
    private static func read(_ bytes: [UInt8]) -> Bool {
        let path = Scratch.write(bytes, to: "key-index.mapped")
        return UntrustedBytes.useKeyIndexSnapshot(path: path, rewritePath: Scratch.directory + "/key-index-rewritten.mapped") != nil
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
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let trimmedPath = Scratch.directory + "/key-index-trimmed.mapped"
            guard let trimmed = withoutRoom(written), FileManager.default.createFile(atPath: trimmedPath, contents: Data(trimmed)),
                let read = UntrustedBytes.readKeyIndexSnapshot(path: trimmedPath), let whole = UntrustedBytes.readKeyIndexSnapshot(path: path),
                read == whole
            else { throw FuzzSeedError("cannot lay out \(path) again") }
            seeds.append((withToken ? "two-zones-client-token" : "two-zones", trimmed))
        }
        return seeds
    }

    /// The snapshot without the room after each zone's slot arrays (sections 9, 11, 13 and 14 of
    /// §12.2, cut to S values): 330 KB → a few KB, the same index.
    private static func withoutRoom(_ bytes: [UInt8]) -> [UInt8]? {
        var slots = 0
        return MappedSnapshotSeal.trimmed(bytes) { index, section in
            guard index > 0 else { return section.count }
            switch (index - 1) % 17 {
            case 0:
                slots = MappedSnapshotSeal.word(section, 3)
                return section.count
            case 9: return 24 * slots
            case 11: return 8 * slots
            case 13, 14: return 4 * slots
            default: return section.count
            }
        }
    }
}
