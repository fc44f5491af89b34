import Foundation
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// The key index checkpoint (snapshot) and materialized views.
@Suite(.everyTuning) struct DatabaseCheckpointTests {
    private let zoneA = ZoneID(zoneName: "A")

    /// Saves and deletes over the default zone and A, with a .deleteSelf pair left in place.
    private func history(_ database: Database) async throws -> [RecordID] {
        try await database.createZone(zoneA)
        var ids: [RecordID] = []
        for zone in [ZoneID.default, zoneA] {
            let saves = (0..<8).map { makeRecord("r\($0)", zone: zone, type: $0 % 2 == 0 ? "Note" : "Task", ["i": .int64(Int64($0))]) }
            _ = try await database.modifyRecords(saving: saves, deleting: [])
            ids += saves.map(\.recordID)
            var edit = try await database.record(for: RecordID(recordName: "r3", zoneID: zone))
            edit["i"] = .int64(33)
            _ = try await database.save(edit)
            try await database.delete(RecordID(recordName: "r4", zoneID: zone))
            _ = try await database.modifyRecords(
                saving: [makeRecord("parent", zone: zone, type: "Folder"), makeRecord("child", zone: zone, ["p": ref("parent", zone: zone)])],
                deleting: [])
            ids += [RecordID(recordName: "parent", zoneID: zone), RecordID(recordName: "child", zoneID: zone)]
        }
        return ids
    }

    private func state(_ database: Database, _ ids: [RecordID]) async throws -> [RecordID: Record] {
        try await database.records(for: ids).compactMapValues { try? $0.get() }
    }

    private func snapshotPath(_ path: String) -> String { path + "/snapshots/key-index.mapped" }

    /// The inode numbers of the key index snapshot and the `NoteTexts` view's: a rewrite changes them.
    private func snapshotFiles(_ path: String) throws -> [Int] {
        try [snapshotPath(path), path + "/snapshots/view-" + NoteTexts.name + ".snapshot"].map {
            try #require(FileManager.default.attributesOfItem(atPath: $0)[.systemFileNumber] as? Int)
        }
    }

    private func totalEvents(_ database: Database) async throws -> Int {
        Int(try await database.allZones().reduce(Int64(0)) { $0 + (try database.endOffset($1)) })
    }

    @Test("a checkpointed open equals a full-replay open, and replays only the tail")
    func checkpointedOpenEqualsReplay() async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            let ids = try await history(first)
            let expected = try await state(first, ids)
            let changes = try await first.fetchZoneChanges(in: zoneA, since: nil)
            try first.close()  // writes the checkpoint
            #expect(FileManager.default.fileExists(atPath: snapshotPath(path)))

            let fromSnapshot = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(fromSnapshot.openReport.zonesFromSnapshot == 2)
            #expect(fromSnapshot.openReport.replayedEvents == 0)
            #expect(try await state(fromSnapshot, ids) == expected)
            #expect(try await fromSnapshot.fetchZoneChanges(in: zoneA, since: nil).changedRecords == changes.changedRecords)
            try fromSnapshot.close()

            try FileManager.default.removeItem(atPath: snapshotPath(path))
            let replayed = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(replayed.openReport.zonesFromSnapshot == 0)
            let total = try await totalEvents(replayed)
            #expect(replayed.openReport.replayedEvents == total)
            #expect(try await state(replayed, ids) == expected)
            try replayed.close()
        }
    }

    @Test("a store opened from its checkpoint behaves as one opened by replay: tags, creation dates, cascades")
    func checkpointedStoreBehaves() async throws {
        for useSnapshot in [true, false] {
            try await withStoreDirectory { path in
                let first = try await Database(directory: path, durability: .noSyncUnsafe)
                let ids = try await history(first)
                let before = try await state(first, ids)
                try first.close()
                if !useSnapshot { try FileManager.default.removeItem(atPath: snapshotPath(path)) }

                let database = try await Database(directory: path, durability: .noSyncUnsafe)
                #expect(database.openReport.zonesFromSnapshot == (useSnapshot ? 2 : 0))
                // A stale copy still conflicts; the current one saves and keeps its creation date.
                let current = try #require(before[RecordID(recordName: "r5", zoneID: zoneA)])
                var edit = current
                edit["i"] = .int64(55)
                let saved = try await database.save(edit)
                #expect(MillisecondDate.same(saved.creationDate, current.creationDate), "snapshot: \(useSnapshot)")
                await expectError(.serverRecordChanged, "snapshot: \(useSnapshot)") { _ = try await database.save(edit) }
                // A record inserted without tag over an existing name conflicts.
                await expectError(.serverRecordChanged) { _ = try await database.save(makeRecord("r0", zone: zoneA)) }
                // The cascade survives the checkpoint.
                let start = try database.endOffset(zoneA)
                try await database.delete(RecordID(recordName: "parent", zoneID: zoneA))
                #expect(try database.endOffset(zoneA) == start + 2, "snapshot: \(useSnapshot)")
                await expectError(.unknownItem) { _ = try await database.record(for: RecordID(recordName: "child", zoneID: zoneA)) }
                try database.close()
            }
        }
    }

    @Test("checkpoint, more writes, crash: the reopen takes the checkpoint and replays exactly the tail")
    func checkpointThenTail() async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            let ids = try await history(first)
            try first.checkpoint()
            let covered = try await totalEvents(first)
            _ = try await first.save(makeRecord("tail1", zone: zoneA))
            try await first.delete(RecordID(recordName: "parent", zoneID: .default))  // + child
            var edit = try await first.record(for: RecordID(recordName: "r1"))
            edit["i"] = .int64(-1)
            _ = try await first.save(edit)
            let tail = try await totalEvents(first) - covered
            #expect(tail == 4)
            let expected = try await state(first, ids + [RecordID(recordName: "tail1", zoneID: zoneA)])
            try first.log.sync()
            // Crash: a copy of the files as they are, no close.
            try await withStoreDirectory { image in
                try copyStore(from: path, to: image)
                let reopened = try await Database(directory: image, durability: .noSyncUnsafe)
                #expect(reopened.openReport.zonesFromSnapshot == 2)
                #expect(reopened.openReport.replayedEvents == tail)
                #expect(try await state(reopened, ids + [RecordID(recordName: "tail1", zoneID: zoneA)]) == expected)
                try reopened.close()
            }
            try first.close()
        }
    }

    @Test(
        "a damaged, foreign or empty checkpoint is ignored: full replay, same state",
        arguments: ["flipped byte", "truncated", "empty", "garbage", "other store"])
    func badCheckpoint(_ damage: String) async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            let ids = try await history(first)
            let expected = try await state(first, ids)
            try first.close()
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: snapshotPath(path))))
            switch damage {
            case "flipped byte":
                // A byte of a section (the zero padding between sections is not read).
                let data = try #require(bytes.indices.dropFirst(bytes.count / 2).first { bytes[$0] != 0 })
                bytes[data] ^= 0x10
            case "truncated": bytes.removeLast(bytes.count / 3)
            case "empty": bytes = []
            case "garbage": bytes = Array("RLSS and then nonsense that is long enough to look like something".utf8)
            case "other store":
                try await withStoreDirectory { otherPath in
                    let other = try await Database(directory: otherPath, durability: .noSyncUnsafe)
                    _ = try await history(other)
                    try other.close()
                    bytes = Array(try Data(contentsOf: URL(fileURLWithPath: snapshotPath(otherPath))))
                }
            default: break
            }
            try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath(path)))

            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(reopened.openReport.zonesFromSnapshot == 0)
            #expect(try await state(reopened, ids) == expected)
            // It goes on: a new save, a checkpoint, a clean reopen.
            _ = try await reopened.save(makeRecord("after"))
            try reopened.close()
            let again = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(again.openReport.zonesFromSnapshot == 2)
            try again.close()
        }
    }

    @Test("close() keeps a checkpoint fewer than checkpointAfterEvents events behind; the next open replays them after it")
    func closeKeepsARecentCheckpoint() async throws {
        let first = try await Database.temporary()
        let path = try #require(first.directory)
        let ids = try await history(first)
        _ = try first.register(NoteTexts.self)
        try first.close()
        func files() throws -> [Int] { try snapshotFiles(path) }
        let written = try files()

        // Five events, fewer than 50: nothing rewritten; the reopened store replays the five.
        var database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 50)
        _ = try database.register(NoteTexts.self)
        for index in 0..<5 { _ = try await database.save(makeRecord("small-\(index)", zone: zoneA, ["text": .string("t\(index)")])) }
        let expected = try await state(database, ids)
        try database.close()
        #expect(try files() == written)
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 50)
        #expect(database.openReport.zonesFromSnapshot == 2 && database.openReport.replayedEvents == 5)
        let texts = try database.register(NoteTexts.self)
        #expect(texts.fromSnapshot)
        #expect(await texts.current == (try database.rebuild(NoteTexts.self)))
        #expect(try await state(database, ids) == expected)

        // Five more in this session, which opened with a tail: still fewer than 50 in all since
        // the checkpoint, still nothing rewritten.
        for index in 5..<10 { _ = try await database.save(makeRecord("small-\(index)", zone: zoneA, ["text": .string("t\(index)")])) }
        try database.close()
        #expect(try files() == written)
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 50)
        #expect(database.openReport.zonesFromSnapshot == 2 && database.openReport.replayedEvents == 10)
        #expect(try database.register(NoteTexts.self).fromSnapshot)

        // Fifty more, 60 in all since the checkpoint: both rewritten, and nothing left to replay.
        for index in 0..<50 { _ = try await database.save(makeRecord("more-\(index)", zone: zoneA, ["text": .string("m")])) }
        try database.close()
        let rewritten = try files()
        #expect(rewritten[0] != written[0] && rewritten[1] != written[1])
        database = try await Database(directory: path, durability: .noSyncUnsafe)
        #expect(database.openReport.replayedEvents == 0)
        try database.removeTemporaryDirectory()
    }

    @Test("closing a store unchanged since its checkpoint rewrites no snapshot; a write, a zone change or a view behind its snapshot does")
    func unchangedStoreKeepsItsCheckpoint() async throws {
        let first = try await Database.temporary()
        let path = try #require(first.directory)
        _ = try await history(first)
        _ = try first.register(NoteTexts.self)
        try first.close()
        func files() throws -> [Int] { try snapshotFiles(path) }
        let written = try files()

        // Opened, read, its view registered from a current snapshot, closed: nothing rewritten.
        var database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 0)
        _ = try await database.fetchZoneChanges(in: zoneA, since: nil)
        _ = try database.register(NoteTexts.self)
        try database.close()
        #expect(try files() == written)

        // A write: both rewritten.
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 0)
        _ = try database.register(NoteTexts.self)
        _ = try await database.save(makeRecord("new", zone: zoneA, ["text": .string("t")]))
        try database.close()
        let afterWrite = try files()
        #expect(afterWrite[0] != written[0] && afterWrite[1] != written[1])

        // Unchanged again, but the view registered only after a write it missed while unregistered.
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 0)
        _ = try await database.save(makeRecord("newer", zone: zoneA, ["text": .string("t")]))
        try database.checkpoint()
        let keyIndexOnly = try files()
        #expect(keyIndexOnly[0] != afterWrite[0] && keyIndexOnly[1] == afterWrite[1], "no view registered: only the key index")
        let texts = try database.register(NoteTexts.self)
        try database.close()
        let viewCaughtUp = try files()
        #expect(viewCaughtUp[1] != afterWrite[1], "the view's snapshot was behind: rewritten")

        // A zone deleted while nothing else changes: rewritten, and the reopened store agrees.
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 0)
        try await database.deleteZone(zoneA)
        try database.close()
        #expect(try files()[0] != viewCaughtUp[0])
        database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: 0)
        #expect(try await database.allZones() == [.default])
        #expect(try await database.register(NoteTexts.self).current == (try database.rebuild(NoteTexts.self)))
        #expect(await texts.current.texts["A"]?["newer"] == "t", "the view had caught up before its snapshot was written")
        try database.removeTemporaryDirectory()
    }

    @Test("a checkpoint that cannot be written still lets close() release the store")
    func closeWhenCheckpointFails() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            _ = try await database.save(makeRecord("kept"))
            // The snapshot's place is taken by a non-empty directory: the checkpoint cannot be written.
            try FileManager.default.createDirectory(atPath: snapshotPath(path) + "/blocker", withIntermediateDirectories: true)
            #expect(throws: (any Error).self) { try database.close() }
            let again = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(try await again.record(for: RecordID(recordName: "kept")).recordType == "Note")
            try FileManager.default.removeItem(atPath: snapshotPath(path))
            try again.close()
            
            try? database.log.close()
        }
    }

    @Test("a checkpoint of a zone that was since deleted and recreated is not applied to the new zone")
    func checkpointOfDeletedIncarnation() async throws {
        try await withStoreDirectory { path in
            let first = try await Database(directory: path, durability: .noSyncUnsafe)
            _ = try await history(first)
            try first.checkpoint()
            try await first.deleteZone(zoneA)
            try await first.createZone(zoneA)
            // The new zone's log grows past what the checkpoint covered for the old one.
            let saves = (0..<20).map { makeRecord("new\($0)", zone: zoneA) }
            _ = try await first.modifyRecords(saving: saves, deleting: [])
            try first.log.sync()
            try await withStoreDirectory { image in
                try copyStore(from: path, to: image)
                let reopened = try await Database(directory: image, durability: .noSyncUnsafe)
                #expect(reopened.openReport.zonesFromSnapshot == 1, "only the default zone")
                let old = try await reopened.records(for: (0..<8).map { RecordID(recordName: "r\($0)", zoneID: zoneA) })
                for result in old.values { #expect(failure(result)?.code == .unknownItem) }
                let new = try await reopened.records(for: saves.map(\.recordID))
                #expect(new.values.allSatisfy { (try? $0.get()) != nil })
                try reopened.close()
            }
            try first.close()
        }
    }

    @Test("a checkpoint covering more than the log holds (log restored from an older copy) is ignored")
    func checkpointAheadOfLog() async throws {
        try await withStoreDirectory { path in
            try await withStoreDirectory { older in
                let first = try await Database(directory: path, durability: .noSyncUnsafe)
                try await first.createZone(zoneA)
                _ = try await first.save(makeRecord("early", zone: zoneA))
                try first.log.sync()
                try copyStore(from: path, to: older)  // no checkpoint in it yet
                _ = try await first.modifyRecords(saving: (0..<5).map { makeRecord("late\($0)", zone: zoneA) }, deleting: [])
                try first.close()
                // The newer checkpoint beside the older log.
                try FileManager.default.createDirectory(atPath: older + "/snapshots", withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: snapshotPath(path), toPath: snapshotPath(older))

                let restored = try await Database(directory: older, durability: .noSyncUnsafe)
                #expect(restored.openReport.zonesFromSnapshot == 1, "the default zone's part still fits")
                let late = try await restored.records(for: (0..<5).map { RecordID(recordName: "late\($0)", zoneID: zoneA) })
                for result in late.values { #expect(failure(result)?.code == .unknownItem) }
                #expect(try await restored.record(for: RecordID(recordName: "early", zoneID: zoneA)).recordType == "Note")
                try restored.close()
            }
        }
    }

    // MARK: Materialized views

    /// Per zone and type, the live record names and their change tags.
    struct Catalog: MaterializedView {
        static let name = "catalog"
        var tags: [String: [String: String]] = [:]  // "zone/type" → name → tag

        init() {}

        mutating func apply(_ event: ViewEvent) {
            switch event {
            case .saved(let record):
                for key in tags.keys { tags[key]?[record.recordID.recordName + "@" + record.recordID.zoneID.zoneName] = nil }
                tags["\(record.recordID.zoneID.zoneName)/\(record.recordType)", default: [:]][record.recordID.recordName + "@" + record.recordID.zoneID.zoneName] =
                    record.recordChangeTag ?? ""
            case .deleted(let id, let recordType):
                tags["\(id.zoneID.zoneName)/\(recordType)"]?[id.recordName + "@" + id.zoneID.zoneName] = nil
            case .zoneDeleted(let zone):
                for key in tags.keys where key.hasPrefix(zone.zoneName + "/") { tags[key] = nil }
            }
            tags = tags.filter { !$0.value.isEmpty }
        }
    }

    /// Each record's modification date, as a view might keep it for sorting.
    struct Modified: MaterializedView {
        static let name = "modified"
        var dates: [String: Date] = [:]

        init() {}

        mutating func apply(_ event: ViewEvent) {
            switch event {
            case .saved(let record): dates[record.recordID.description] = record.modificationDate
            case .deleted(let id, _): dates[id.description] = nil
            case .zoneDeleted(let zone): dates = dates.filter { !$0.key.hasPrefix(zone.zoneName + "/") }
            }
        }
    }

    /// A random history: saves, updates, deletes with cascades, zones deleted and recreated.
    private func randomHistory(_ database: Database, seed: UInt64, steps: Int) async throws {
        var generator = SeededGenerator(seed: seed)
        let zones = [ZoneID.default, ZoneID(zoneName: "A"), ZoneID(zoneName: "B")]
        for zone in zones { try await database.createZone(zone) }
        for _ in 0..<steps {
            let zone = zones.randomElement(using: &generator)!
            let roll = Int.random(in: 0..<40, using: &generator)
            if roll == 0, !zone.isDefault {
                try await database.deleteZone(zone)
                try await database.createZone(zone)
                continue
            }
            let names = (0..<6).map { RecordID(recordName: "r\($0)", zoneID: zone) }
            let live = try await database.records(for: names).compactMapValues { try? $0.get() }
            let id = names.randomElement(using: &generator)!
            if let existing = live[id], roll < 10 {
                try await database.delete(existing.recordID)
            } else {
                var record = live[id] ?? makeRecord(id.recordName, zone: zone, type: ["Note", "Task"].randomElement(using: &generator)!)
                record["n"] = .int64(Int64(roll))
                if let target = live.keys.filter({ $0 != id }).randomElement(using: &generator), roll % 3 == 0 {
                    record["parent"] = ref(target.recordName, zone: zone)
                }
                _ = try await database.save(record)
            }
        }
    }

    @Test("a live view equals the same view rebuilt from the log, over random histories, across checkpoints and crashes", arguments: [1, 2, 3])
    func viewEqualsRebuild(seed: UInt64) async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            let live = try database.register(Catalog.self)
            try await randomHistory(database, seed: seed, steps: 60)
            #expect(await live.current == (try database.rebuild(Catalog.self)))
            #expect(await !live.current.tags.isEmpty)
            try database.close()  // snapshot of the view

            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            let fromSnapshot = try reopened.register(Catalog.self)
            #expect(await fromSnapshot.current == (try reopened.rebuild(Catalog.self)))
            try await randomHistory(reopened, seed: seed &+ 100, steps: 60)
            #expect(await fromSnapshot.current == (try reopened.rebuild(Catalog.self)))
            try reopened.checkpoint()
            try await randomHistory(reopened, seed: seed &+ 200, steps: 30)
            try reopened.log.sync()
            let expected = try reopened.rebuild(Catalog.self)
            #expect(await fromSnapshot.current == expected)

            try await withStoreDirectory { image in
                try copyStore(from: path, to: image)  // crash after the checkpoint
                let crashed = try await Database(directory: image, durability: .noSyncUnsafe)
                let view = try crashed.register(Catalog.self)
                #expect(await view.current == expected)
                try crashed.close()
            }
            try reopened.close()
        }
    }

    @Test("a live view of modification dates equals its rebuild")
    func viewOfDates() async throws {
        try await withTemporaryDatabase { database in
            let live = try database.register(Modified.self)
            try await randomHistory(database, seed: 5, steps: 20)
            let rebuilt = try database.rebuild(Modified.self)
            #expect(Set(await live.current.dates.keys) == Set(rebuilt.dates.keys))
            #expect(await live.current == rebuilt)
            
        }
    }

    @Test("a view name must be 1 to 100 of [A-Za-z0-9_-]")
    func viewRegistration() async throws {
        struct BadName: MaterializedView {
            static let name = "bad name"
            init() {}
            mutating func apply(_ event: ViewEvent) {}
        }
        _ = try await withTemporaryDatabase { database in
            await expectError(.invalidArguments) { _ = try database.register(BadName.self) }
        }
    }

    @Test("closing a store holding a record with 65,536 .deleteSelf references does not crash")
    func manyCascadeTargets() async {
        // The child processes cannot clean up after a crash: they use a fixed path the parent removes.
        defer { try? FileManager.default.removeItem(atPath: Self.exitTestDirectory) }
        // The save itself is fine (the record is valid and far below 1 MB)…
        await #expect(processExitsWith: .success) {
            try? FileManager.default.removeItem(atPath: Self.exitTestDirectory)
            let database = try await Database(directory: Self.exitTestDirectory, durability: .noSyncUnsafe)
            _ = try await database.save(makeRecord("t"))
            _ = try await database.save(makeRecord("many", ["refs": .list(Array(repeating: ref("t"), count: 65_536))]))
            _ = try await database.record(for: RecordID(recordName: "many"))
        }
        // …closing is not.
        await #expect(processExitsWith: .success) {
            try? FileManager.default.removeItem(atPath: Self.exitTestDirectory)
            let database = try await Database(directory: Self.exitTestDirectory, durability: .noSyncUnsafe)
            _ = try await database.save(makeRecord("t"))
            _ = try await database.save(makeRecord("many", ["refs": .list(Array(repeating: ref("t"), count: 65_536))]))
            try database.removeTemporaryDirectory()
        }
        
    }

    static var exitTestDirectory: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("DatabaseTests-exit-many-cascade-targets").path
    }
}
