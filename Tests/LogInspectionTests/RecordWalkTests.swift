import Foundation
import LogInspection
import RecordLog
import RecordStore
import Testing
import TestSupport

/// `log-replay history --record` and `log-inspect dump --key` walk one record's versions
/// backwards along their `previous` headers (FORMAT.md §10.1) from the latest, which the key
/// index checkpoint locates: they find exactly the events a full read of the zone finds —
/// across deletes and re-creations, a checkpoint older than the log, compaction and logs
/// written before the header — while reading only the log after the checkpoint and one batch
/// per version.
@Suite struct RecordWalkTests {
    static let zone = ZoneID(zoneName: "Items")
    static let names = (0..<12).map { "r\($0)" }

    /// A new store with small segments (so that compaction has sealed ones to clean) and the
    /// zone ``zone``.
    static func open(_ path: String) async throws -> Database {
        let database = try await reopen(path)
        try await database.createZone(zone)
        return database
    }

    /// The store at `path`, opened again as ``open(_:)`` opened it: no checkpoint but when asked.
    static func reopen(_ path: String) async throws -> Database {
        var options = LogOptions(durability: .noSyncUnsafe)
        options.segmentBytes = 4 << 10
        return try await Database(directory: path, options: options, checkpointAfterEvents: .max, compaction: .manual)
    }

    /// `commits` random commits over ``names``: saves of new and live records, updates, deletes.
    static func write(_ database: Database, commits: Int, generator: inout SeededGenerator) async throws {
        for _ in 0..<commits {
            let found = try await database.records(for: names.map { RecordID(recordName: $0, zoneID: zone) })
            let live = Set(found.compactMap { id, result in (try? result.get()) == nil ? nil : id.recordName })
            var saving: [Record] = [], deleting: [RecordID] = []
            for name in names.shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator)) {
                if live.contains(name), Bool.random(using: &generator) {
                    deleting.append(RecordID(recordName: name, zoneID: zone))
                } else {
                    var record = Record(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zone))
                    record["n"] = .int64(Int64.random(in: 0..<1000, using: &generator))
                    record["text"] = .string(String(repeating: "x", count: Int.random(in: 0..<300, using: &generator)))
                    saving.append(record)
                }
            }
            _ = try await database.modifyRecords(saving: saving, deleting: deleting, savePolicy: .allKeys)
        }
    }

    /// What a full read of the zone finds for `name`.
    static func scanned(_ store: ReplayStore, _ name: String) throws -> [Int64] {
        try store.log.partition(named: zone.zoneName).records(from: store.partition(zone.zoneName).startOffset)
            .filter { $0.keyString == name }.map(\.offset)
    }

    /// Every name's walk equals the scan, walked; returns the events the walks read in passing.
    @discardableResult
    static func expectWalksMatchScans(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let store = try ReplayStore(directory: path)
        defer { store.close() }
        var scannedInPassing: Int64 = 0
        for name in names + ["never-saved"] {
            let read = try store.recordEvents(zone: zone.zoneName, recordName: name)
            #expect(read.walked, "\(name) was read by a full scan", sourceLocation: sourceLocation)
            let all = try scanned(store, name)
            #expect(read.events.map(\.offset) == all, "\(name)", sourceLocation: sourceLocation)
            scannedInPassing += read.scannedEvents
            let dumped = try Dump.records(InspectTarget(path: path), filter: DumpFilter(zone: zone.zoneName, key: name)).map(\.record.offset)
            #expect(dumped == read.events.map(\.offset), "dump --key \(name)", sourceLocation: sourceLocation)
        }
        return scannedInPassing
    }

    @Test("every record's walk finds what a full read finds: after a checkpoint and with a tail after it, after compaction, and after writes that follow it")
    func walksMatchScans() async throws {
        var generator = SeededGenerator(seed: 28)
        try await withTemporaryStorePath { path in
            let database = try await Self.open(path)
            try await Self.write(database, commits: 120, generator: &generator)
            try database.checkpoint()
            // Covered by the checkpoint whole: nothing is read in passing, one batch per version.
            #expect(try Self.expectWalksMatchScans(path) == 0)
            try await Self.write(database, commits: 40, generator: &generator)
            try Self.expectWalksMatchScans(path)
            _ = try await database.compact(zone: Self.zone, tombstoneRetention: .zero)
            try Self.expectWalksMatchScans(path)
            try await Self.write(database, commits: 40, generator: &generator)
            try database.checkpoint()
            try Self.expectWalksMatchScans(path)
            try database.close()
        }
    }

    @Test("a record re-created after compaction dropped its delete: its walk is its new save alone, from a checkpoint written before that compaction or after it")
    func walkAfterADroppedDelete() async throws {
        var generator = SeededGenerator(seed: 11)
        try await withTemporaryStorePath { path in
            let database = try await Self.open(path)
            try await Self.write(database, commits: 60, generator: &generator)
            let ids = Self.names.map { RecordID(recordName: $0, zoneID: Self.zone) }
            let live = try await database.records(for: ids).compactMap { id, result in (try? result.get()) == nil ? nil : id }
            _ = try await database.modifyRecords(saving: [], deleting: live)
            try database.checkpoint()  // every name's delete in its deleted names
            let report = try #require(try await database.compact(zone: Self.zone, tombstoneRetention: .zero).first)
            #expect(report.tombstonesDropped >= live.count)
            let recreated = Array(Self.names.prefix(4))
            _ = try await database.modifyRecords(
                saving: recreated.map { Record(recordType: "Item", recordID: RecordID(recordName: $0, zoneID: Self.zone)) }, deleting: [],
                savePolicy: .allKeys)
            // Closed without a checkpoint: the one before the compaction, which still holds the
            // dropped deletes, is what the walks start from; then one written after it.
            try database.close()
            try Self.expectRecreatedWalks(path, recreated)
            let again = try await Self.reopen(path)
            try again.checkpoint()
            try again.close()
            try Self.expectRecreatedWalks(path, recreated)
        }
    }

    /// Every name's walk equals the scan, and each of `recreated` is its one save since, which
    /// names no previous event.
    static func expectRecreatedWalks(_ path: String, _ recreated: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectWalksMatchScans(path, sourceLocation: sourceLocation)
        let store = try ReplayStore(directory: path)
        defer { store.close() }
        for name in recreated {
            let read = try store.recordEvents(zone: zone.zoneName, recordName: name)
            #expect(read.walked && read.events.count == 1, "\(name)", sourceLocation: sourceLocation)
            #expect(read.events.last.map { StoredEvent($0).previous } == PreviousEvent.none, "\(name)", sourceLocation: sourceLocation)
        }
    }

    @Test("a walk reads one batch per version: a record saved 50 times in a zone of 5,000 events reads its 50 versions one batch each, and no event in passing")
    func walkReadsOnlyTheVersions() async throws {
        try await withTemporaryStorePath { path in
            let database = try await Self.open(path)
            for round in 0..<50 {
                let records = (0..<100).map { index -> Record in
                    var record = Record(recordType: "Item", recordID: RecordID(recordName: index == 0 ? "target" : "o\(round)-\(index)", zoneID: Self.zone))
                    record["n"] = .int64(Int64(round))
                    return record
                }
                _ = try await database.modifyRecords(saving: records, deleting: [], savePolicy: .allKeys)
            }
            try database.checkpoint()
            let store = try ReplayStore(directory: path)
            defer { store.close() }
            let read = try store.recordEvents(zone: Self.zone.zoneName, recordName: "target")
            #expect(read.walked)
            #expect(read.events.count == 50)
            #expect(read.versionsRead == 50)
            #expect(read.scannedEvents == 0)
            let history = try store.history(zone: Self.zone.zoneName, recordName: "target").map(\.offset)
            #expect(history == (0..<50).map { Int64($0 * 100) })
            try database.close()
        }
    }

    @Test("a store without a checkpoint is read whole; a log written before the header is walked as far as it can and read below")
    func storesWithoutWhatAWalkNeeds() async throws {
        // The fixture was written before `previous`: its checkpoint locates the latest save, and
        // the zone is read below it.
        let store = try ReplayStore(directory: Fixtures.path("notes-store"))
        defer { store.close() }
        let read = try store.recordEvents(zone: "Notes", recordName: "default-folder")
        #expect(read.walked && read.scannedEvents > 0)
        let all = try store.log.partition(named: "Notes").records(from: 0).filter { $0.keyString == "default-folder" }.map(\.offset)
        #expect(read.events.map(\.offset) == all && !all.isEmpty)
        try await withTemporaryStorePath { path in
            let database = try await Self.open(path)
            var generator = SeededGenerator(seed: 7)
            try await Self.write(database, commits: 20, generator: &generator)
            try database.close()
            // Without the checkpoint nothing locates a record.
            try FileManager.default.removeItem(atPath: path + "/snapshots")
            let store = try ReplayStore(directory: path)
            defer { store.close() }
            for name in Self.names {
                let read = try store.recordEvents(zone: Self.zone.zoneName, recordName: name)
                let scanned = try Self.scanned(store, name)
                #expect(!read.walked && read.events.map(\.offset) == scanned)
            }
        }
    }

    /// Runs `body` with a store path that does not exist yet, and removes it afterwards.
    func withTemporaryStorePath(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("RecordWalk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }
}
