import Foundation
import Notes
import RecordStore
import StorageKit

/// A JSON view snapshot (`view-<name>.snapshot`, FORMAT.md §12: the view's Codable JSON with the
/// store ID and zone positions, then its CRC-32C), as a store's open reads it for a view that is
/// not mapped — here the Notes app's `FoldersView`, the JSON view the project ships. Each input
/// is tried as given and again with its last four bytes made the CRC of the rest, so that the
/// fuzzer gets past the checksum into the JSON and the view's decoding. The read must refuse it
/// (the view is then rebuilt by replay) or give a view that takes what a store then does with
/// it: its folders listed, live commits folded in (folders saved, renamed and deleted, another
/// zone's records, a zone deleted), and the next checkpoint's snapshot written and read back as
/// the same view.
enum JSONViewSnapshotTarget {
    static func run(_ input: [UInt8]) {
        read(input)
        if let sealed = withCorrectCRC(input), sealed != input { read(sealed) }
    }

    static func accepts(_ input: [UInt8]) -> Bool { read(input) }

    private static let zone = ZoneID(zoneName: "Notes")

    @discardableResult
    private static func read(_ bytes: [UInt8]) -> Bool {
        guard let snapshot = UntrustedBytes.decodeJSONViewSnapshot(bytes, as: FoldersView.self) else { return false }
        var view = snapshot.view
        let listed = view.sorted
        let date = Date(timeIntervalSinceReferenceDate: 1_000_000)
        for (index, folder) in listed.prefix(4).enumerated() {
            view.apply(.saved(record(folder.id, name: "renamed \(index)", in: zone, date)))
        }
        view.apply(.saved(record("fuzz-folder", name: "new", in: zone, date)))
        require(view.folders["fuzz-folder"]?.name == "new", "a folder saved over a snapshot's view is not found")
        view.apply(.saved(record("fuzz-other", name: "elsewhere", in: ZoneID(zoneName: "Other"), date)))
        for folder in listed.prefix(8) + [Folder(id: "fuzz-folder", name: "")] {
            view.apply(.deleted(RecordID(recordName: folder.id, zoneID: zone), recordType: Folder.recordType))
        }
        view.apply(.zoneDeleted(ZoneID(zoneName: "Other")))
        _ = view.sorted
        // The next checkpoint writes what the view holds, and the open after it reads that.
        let again: (view: FoldersView, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)])?
        do {
            again = try UntrustedBytes.rewriteJSONViewSnapshot(view, directory: rewriteDirectory, storeID: snapshot.storeID, zones: snapshot.zones)
        } catch {
            require(false, "the next checkpoint cannot write a view read from a snapshot: \(error)")
            return true
        }
        guard let again else {
            require(false, "the snapshot the next checkpoint wrote is not read")
            return true
        }
        require(again.view == view, "the snapshot the next checkpoint wrote reads as another view")
        require(again.storeID == snapshot.storeID, "the snapshot the next checkpoint wrote names another store")
        require(
            again.zones.map(\.name) == snapshot.zones.map(\.name) && again.zones.map(\.incarnation) == snapshot.zones.map(\.incarnation)
                && again.zones.map(\.offset) == snapshot.zones.map(\.offset),
            "the snapshot the next checkpoint wrote holds other zone positions")
        return true
    }

    /// A store directory of its own for the rewritten snapshot, made once.
    private static let rewriteDirectory: String = {
        let store = Scratch.directory + "/json-view-rewrite"
        try? FileManager.default.createDirectory(atPath: store + "/snapshots", withIntermediateDirectories: true)
        return store
    }()

    private static func record(_ id: String, name: String, in zone: ZoneID, _ date: Date) -> Record {
        var record = Record(recordType: Folder.recordType, recordID: RecordID(recordName: id, zoneID: zone))
        record[Folder.Fields.name.rawValue] = .string(name)
        return record
    }

    /// `bytes` with its last four bytes set to the CRC-32C (big-endian) of the bytes before them;
    /// nil when there are no bytes before them.
    static func withCorrectCRC(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 4 else { return nil }
        var sealed = Array(bytes.dropLast(4))
        let crc = CRC32C.checksum(sealed)
        sealed += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        return sealed
    }

    /// Snapshots the store writes at a checkpoint: of the default folder alone, and of folders
    /// with names that JSON must escape, one renamed and one deleted, in a store of two zones.
    static func seeds() async throws -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        for (name, many) in [("default-folder", false), ("folders", true)] {
            let store = Scratch.freshDirectory("json-view-seeds")
            defer { try? FileManager.default.removeItem(atPath: store) }
            let database = try await Database(directory: store, durability: .noSyncUnsafe, logger: Scratch.silent)
            let manager = try await RecordNotesManager(database: database)
            _ = try await manager.createDefaultFolder()
            if many {
                _ = try await database.createZone(ZoneID(zoneName: "Other"))
                var work = try await manager.save(Folder(id: "work", name: "Work"))
                _ = try await manager.save(Folder(id: "quotes", name: "\"Quotes\" \\ and\nlines — café 🗂"))
                let gone = try await manager.save(Folder(id: "gone", name: "Gone"))
                work.name = "Work, renamed"
                _ = try await manager.save(work)
                try await manager.delete(gone)
            }
            try database.checkpoint()
            try database.close()
            let path = store + "/snapshots/view-" + FoldersView.name + ".snapshot"
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let read = UntrustedBytes.decodeJSONViewSnapshot(bytes, as: FoldersView.self), read.view.folders.count == (many ? 3 : 1)
            else { throw FuzzSeedError("cannot read back \(path)") }
            seeds.append((name, bytes))
        }
        return seeds
    }
}
