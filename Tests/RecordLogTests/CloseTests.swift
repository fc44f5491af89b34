import Foundation
import Testing
@testable import RecordLog
import StorageKit

/// Closing a store writes only what changed since it was opened: the index files of a zone that
/// took no append, and a recovery checkpoint that would say the same again, are left as they
/// are (each rewrite is a temporary file, two syncs and a rename). What is written stays exactly
/// what a full close would write, so every later open finds the same store.
@Suite struct CloseTests {
    /// The identity of each index and checkpoint file: a rewrite renames a new file over the
    /// name, so a file left alone keeps its inode.
    static func fileIdentities(_ store: String) throws -> [String: UInt64] {
        var identities: [String: UInt64] = [:]
        let paths = try ["A", "B"].flatMap { zone in
            let directory = try partitionDirectory(store, zone: zone)
            return ["00000000000000000000.index", "00000000000000000000.timeindex"].map { directory + "/" + $0 }
        } + [store + "/" + RecoveryCheckpoint.fileName]
        for path in paths {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            identities[String(path.dropFirst(store.count))] = try #require(attributes[.systemFileNumber] as? UInt64)
        }
        return identities
    }

    @Test("a close rewrites the index files of the zones that took appends, and the checkpoint only when a recovery point moved")
    func closeWritesOnlyWhatChanged() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<30)
            var log = try Log(directory: store, options: fastOptions())
            _ = try await log.createPartition(named: "A").append(Array(events[0..<10]), batchSize: 5)
            _ = try await log.createPartition(named: "B").append(Array(events[10..<20]), batchSize: 5)
            try log.close()
            let first = try Self.fileIdentities(store)

            log = try Log(directory: store, options: fastOptions())
            try log.close()
            #expect(try Self.fileIdentities(store) == first, "an open and close with no append rewrote a file")

            log = try Log(directory: store, options: fastOptions())
            _ = try await log.partition(named: "A").append(Array(events[20..<30]), batchSize: 5)
            try log.close()
            let second = try Self.fileIdentities(store)
            for (path, identity) in first {
                if path.contains("/B/") {
                    #expect(second[path] == identity, "\(path) of the zone with no append was rewritten")
                } else {
                    #expect(second[path] != identity, "\(path) was not rewritten after an append")
                }
            }

            log = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(try log.partition(named: "A").records(from: 0).map(\.event) == Array(events[0..<10] + events[20..<30]))
            #expect(try log.partition(named: "B").records(from: 0).map(\.event) == Array(events[10..<20]))
            try log.close()
            #expect(StoreCheck.metadataProblems(store: store).isEmpty)
        }
    }

    @Test("index files of the active segment that are gone are written again by the next close, appends or not")
    func missingIndexFilesAreWrittenAgain() async throws {
        try await withStorePath { store in
            var log = try Log(directory: store, options: fastOptions())
            _ = try await log.createPartition(named: "A").append(Sample.events(0..<10), batchSize: 5)
            _ = try await log.createPartition(named: "B").append(Sample.events(10..<20), batchSize: 5)
            try log.close()
            let index = try partitionDirectory(store, zone: "A") + "/00000000000000000000.index"
            let written = try readBytes(index)
            try FileManager.default.removeItem(atPath: index)

            log = try Log(directory: store, options: fastOptions())
            try log.close()
            #expect(try readBytes(index) == written)
        }
    }

    @Test("after a crash, the first close writes the index files and the checkpoint of the recovered zone")
    func closeAfterACrashWritesTheRecoveredZone() async throws {
        try await withStorePath { store in
            let events = Sample.events(0..<12)
            try await makeCrashedStore(at: store, options: fastOptions(), events: events, batchSize: 4, unsynced: 4, zone: "A")
            let directory = try partitionDirectory(store, zone: "A")
            #expect(!FileManager.default.fileExists(atPath: directory + "/00000000000000000000.index"))

            var log = try Log(directory: store, options: fastOptions())
            try log.close()
            #expect(FileManager.default.fileExists(atPath: directory + "/00000000000000000000.index"))
            #expect(RecoveryCheckpoint.read(directory: store)?[directory.split(separator: "/").last.map(String.init) ?? ""] == 12)

            log = try Log(directory: store, options: fastOptions(readOnly: true))
            #expect(try log.partition(named: "A").records(from: 0).map(\.event) == events)
            try log.close()
        }
    }
}
