import Foundation
import RecordLog
@testable import RecordStore
import Testing

/// The system partition is no single point of failure: damage to its durable events is refused
/// like any other, and no open ever deletes a zone's files to make the logs agree.
@Suite struct SystemPartitionDamageTests {
    static func segment(_ store: String, zone: String) throws -> String {
        store + "/zones/" + (try ZoneDirectoryName.encode(zone)) + "/00000000000000000000.log"
    }

    /// The files of a zone directory with their bytes.
    static func files(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    /// A store with a zone "Work" holding three records; its creation is the system partition's last batch.
    static func storeWithWorkZone(at path: String) async throws {
        let database = try await Database(directory: path, durability: .noSyncUnsafe)
        let work = try await database.createZone(ZoneID(zoneName: "Work"))
        for name in ["a", "b", "c"] {
            var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: work))
            record["text"] = .string("note \(name)")
            _ = try await database.save(record)
        }
        try database.close()
    }

    @Test("a flip in the system partition's last batch is refused, deletes no zone, and repair keeps the zone's files")
    func flipInSystemPartitionsLastBatch() async throws {
        try await withStoreDirectory { store in
            try await Self.storeWithWorkZone(at: store)
            let system = try Self.segment(store, zone: StoredEvent.systemPartition)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: system))
            let lastBatch = try #require(try RecordBatchBoundaries.starts(of: Array(bytes)).last)
            bytes[lastBatch + 70 < bytes.count ? lastBatch + 70 : bytes.count - 1] ^= 0x20
            try bytes.write(to: URL(fileURLWithPath: system))
            let workDirectory = store + "/zones/Work"
            let workFiles = try Self.files(workDirectory)

            do {
                _ = try await Database(directory: store, durability: .noSyncUnsafe)
                Issue.record("a store whose durable system batch is damaged must not open")
            } catch let LogError.corruptBatch(file, position, _, _) {
                #expect(file == system)
                #expect(position == Int64(lastBatch))
            }
            #expect(try Self.files(workDirectory) == workFiles, "the zone's files are untouched")

            let report = try Log.repair(directory: store)
            let repair = try #require(report.repairs.first)
            #expect(repair.partition == StoredEvent.systemPartition)
            #expect(repair.firstLostOffset == repair.lostOffsets.lowerBound && !repair.lostOffsets.isEmpty, "the lost commit is reported")
            #expect(repair.quarantine.allSatisfy { $0.hasPrefix(store + "/lost+found/") } && !repair.quarantine.isEmpty)

            // The zone's creation is gone from the system log: the zone is reported and kept.
            let database = try await Database(directory: store, durability: .noSyncUnsafe)
            #expect(database.openReport.unregisteredZones == ["Work"])
            #expect(try await !database.allZones().contains(ZoneID(zoneName: "Work")))
            try database.close()
            #expect(FileManager.default.fileExists(atPath: workDirectory))
            let after = try Self.files(workDirectory)
            #expect(after["00000000000000000000.log"] == workFiles["00000000000000000000.log"], "no record of the zone is lost")
        }
    }

    @Test("a zone directory the system log does not account for is kept, across opens, and never served")
    func unregisteredZoneIsKept() async throws {
        try await withStoreDirectory { store in
            try await Database(directory: store, durability: .noSyncUnsafe).close()
            do {
                let log = try Log(directory: store, options: LogOptions(durability: .noSyncUnsafe))
                var batch = RecordBatchBuilder()
                batch.append(key: "stray", value: [1, 2, 3])
                _ = try await log.createPartition(named: "Stray").append(batch)
                try log.close()
            }
            for _ in 0..<2 {
                let database = try await Database(directory: store, durability: .noSyncUnsafe)
                #expect(database.openReport.unregisteredZones == ["Stray"])
                await expectError(.zoneNotFound) { _ = try await database.fetchZone(ZoneID(zoneName: "Stray")) }
                try database.close()
                #expect(FileManager.default.fileExists(atPath: store + "/zones/Stray/00000000000000000000.log"))
            }
        }
    }

    @Test("a crash after a zone's creation became durable but before its directory existed leaves the zone, empty")
    func registeredZoneWithoutDirectory() async throws {
        try await withStoreDirectory { store in
            try await Database(directory: store, durability: .noSyncUnsafe).close()
            // What createZone leaves when it dies between its durable event and the directory.
            do {
                let log = try Log(directory: store, options: LogOptions(durability: .noSyncUnsafe))
                var batch = RecordBatchBuilder()
                batch.append(key: "Work", value: [], headers: StoredEvent.headers(.createZone))
                _ = try await log.partition(named: StoredEvent.systemPartition).append(batch)
                try log.close()
            }
            #expect(!FileManager.default.fileExists(atPath: store + "/zones/Work"))
            let database = try await Database(directory: store, durability: .noSyncUnsafe)
            let work = ZoneID(zoneName: "Work")
            #expect(try await database.allZones().contains(work))
            #expect(try await database.fetchZoneChanges(in: work, since: nil).changedRecords.isEmpty)
            #expect(database.openReport.unregisteredZones.isEmpty)
            try database.close()
        }
    }

    @Test("a zone deleted durably whose files survived is removed by the next open")
    func deletedZoneFilesAreRemoved() async throws {
        try await withStoreDirectory { store in
            let database = try await Database(directory: store, durability: .noSyncUnsafe)
            let zone = try await database.createZone(ZoneID(zoneName: "Gone"))
            // Keep a copy of the zone's files, delete the zone, then put the files back: as a
            // crash between the durable deleteZone event and the removal of the files leaves it.
            let directory = store + "/zones/Gone"
            let copy = store + "-gone-copy"
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try FileManager.default.copyItem(atPath: directory, toPath: copy)
            try await database.deleteZone(zone)
            try database.close()
            try FileManager.default.copyItem(atPath: copy, toPath: directory)

            let reopened = try await Database(directory: store, durability: .noSyncUnsafe)
            #expect(reopened.openReport.unregisteredZones.isEmpty)
            try reopened.close()
            #expect(!FileManager.default.fileExists(atPath: directory))
        }
    }
}

/// Where each batch of a segment file starts, from the batch lengths (offset 8, 4 bytes).
enum RecordBatchBoundaries {
    static func starts(of bytes: [UInt8]) throws -> [Int] {
        var starts: [Int] = []
        var position = 0
        while position + 12 <= bytes.count {
            let length = bytes[(position + 8)..<(position + 12)].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0 else { break }
            starts.append(position)
            position += 12 + length
        }
        return starts
    }
}
