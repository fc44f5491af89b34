import Foundation
@testable import RecordStore
import Testing

/// The key index checkpoint read beside the log's open (`CommitTuning.twoThreadOpenBytes`): used
/// only while its path still names the file it read. Every `.everyTuning` suite that reopens a
/// store runs the open both ways.
@Suite struct CheckpointPrefetchTests {
    /// A store whose checkpoint was written after `first` records and again after `second`
    /// more: the two checkpoint files, copied aside.
    private func twoCheckpoints(_ path: String, first: Int, second: Int) async throws -> (older: String, newer: String) {
        let database = try await Database(directory: path, durability: .noSyncUnsafe)
        _ = try await database.modifyRecords(saving: (0..<first).map { makeRecord("a\($0)") }, deleting: [])
        try database.checkpoint()
        let checkpoint = Database.checkpointPath(directory: path)
        let older = path + "/older.mapped", newer = path + "/newer.mapped"
        try FileManager.default.copyItem(atPath: checkpoint, toPath: older)
        _ = try await database.modifyRecords(saving: (0..<second).map { makeRecord("b\($0)") }, deleting: [])
        try database.checkpoint()
        try FileManager.default.copyItem(atPath: checkpoint, toPath: newer)
        try database.close()
        return (older, newer)
    }

    /// Puts a copy of `file` at the store's checkpoint path, by renaming it over the file there
    /// (as a writer's checkpoint replaces it).
    private func install(_ file: String, in path: String) throws {
        let staged = path + "/staged.mapped"
        try? FileManager.default.removeItem(atPath: staged)
        try FileManager.default.copyItem(atPath: file, toPath: staged)
        guard rename(staged, Database.checkpointPath(directory: path)) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test("a checkpoint read beside the open is taken while its path names the file read, and refused once another file replaced it")
    func replacedCheckpointIsRefused() async throws {
        try await withStoreDirectory { path in
            let (older, newer) = try await twoCheckpoints(path, first: 5, second: 7)
            try install(older, in: path)
            let prefetch = try #require(CheckpointPrefetch.start(path: Database.checkpointPath(directory: path), fromBytes: 0))
            let read = try #require(await prefetch.take())
            #expect(read.zones[ZoneID.default.zoneName]?.records.count == 5)
            // Handed over once: the prefetch keeps no second reference to the index's arrays.
            #expect(await prefetch.take() == nil)

            // Another writer's checkpoint renamed over it once read: the open must read the file itself.
            let replaced = try #require(CheckpointPrefetch.start(path: Database.checkpointPath(directory: path), fromBytes: 0))
            await replaced.waitUntilDone()
            try install(newer, in: path)
            #expect(await replaced.take() == nil)
            let again = try #require(CheckpointPrefetch.start(path: Database.checkpointPath(directory: path), fromBytes: 0))
            #expect(await again.take()?.zones[ZoneID.default.zoneName]?.records.count == 12)
        }
    }

    @Test("no read starts for a checkpoint below the threshold, a missing one, or with the trick off")
    func thresholds() async throws {
        try await withStoreDirectory { path in
            _ = try await twoCheckpoints(path, first: 3, second: 0)
            let checkpoint = Database.checkpointPath(directory: path)
            let size = try #require(FileManager.default.attributesOfItem(atPath: checkpoint)[.size] as? Int)
            #expect(CheckpointPrefetch.start(path: checkpoint, fromBytes: size + 1) == nil)
            #expect(CheckpointPrefetch.start(path: checkpoint, fromBytes: .max) == nil)
            #expect(CheckpointPrefetch.start(path: path + "/missing.mapped", fromBytes: 0) == nil)
            #expect(await CheckpointPrefetch.start(path: checkpoint, fromBytes: size)?.take() != nil)
        }
    }

    @Test("a damaged checkpoint read beside the open is not taken; the open reads it itself, ignores it and replays the log")
    func damagedCheckpoint() async throws {
        try await withStoreDirectory { path in
            _ = try await twoCheckpoints(path, first: 4, second: 2)
            let checkpoint = Database.checkpointPath(directory: path)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: checkpoint)))
            bytes[bytes.count / 3] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: checkpoint))
            #expect(await CheckpointPrefetch.start(path: checkpoint, fromBytes: 0)?.take() == nil)

            let reopened = try await CommitTuning.$current.withValue(.always) {
                try await Database(directory: path, durability: .noSyncUnsafe)
            }
            #expect(reopened.openReport.zonesFromSnapshot == 0)
            #expect(try await reopened.records(for: (0..<4).map { RecordID(recordName: "a\($0)", zoneID: .default) }).count == 4)
            try reopened.close()
        }
    }
}
