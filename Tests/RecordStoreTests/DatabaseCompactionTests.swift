import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TestSupport

/// Compaction seen from the store: every read answers as before, views and the key index
/// replayed from a compacted log equal those of the full log, change tokens expire exactly at
/// the expiry offset, and writers go on meanwhile.
@Suite(.everyTuning) struct DatabaseCompactionTests {
    static let zones = [ZoneID.default, ZoneID(zoneName: "A"), ZoneID(zoneName: "B")]
    static let names = (0..<12).map { "r\($0)" }

    static var allIDs: [RecordID] { zones.flatMap { zone in names.map { RecordID(recordName: $0, zoneID: zone) } } }

    /// A random history of many edits, deletes (cascades included) and re-creations.
    static func randomHistory(_ database: Database, seed: UInt64, steps: Int) async throws {
        var generator = SeededGenerator(seed: seed)
        for zone in zones where !zone.isDefault { _ = try? await database.createZone(zone) }
        for _ in 0..<steps {
            let zone = zones.randomElement(using: &generator)!
            let roll = Int.random(in: 0..<30, using: &generator)
            let ids = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                RecordID(recordName: names.randomElement(using: &generator)!, zoneID: zone)
            }
            let live = try await database.records(for: ids).compactMapValues { try? $0.get() }
            if roll < 6, !live.isEmpty {
                _ = try await database.modifyRecords(saving: [], deleting: Array(live.keys))
                continue
            }
            var saves: [Record] = []
            for id in Set(ids).sorted(by: { $0.recordName < $1.recordName }) {
                var record = live[id] ?? makeRecord(id.recordName, zone: zone, type: ["Note", "Task"].randomElement(using: &generator)!)
                record["n"] = .int64(Int64(roll))
                record["text"] = .string(String(repeating: "edit ", count: roll))
                if roll % 4 == 0, let target = live.keys.filter({ $0 != id }).randomElement(using: &generator) {
                    record["parent"] = ref(target.recordName, zone: zone)
                }
                saves.append(record)
            }
            // A reference's target may have gone with a cascade meanwhile: such a request is
            // refused whole (atomic), and the history goes on without it.
            _ = try? await database.modifyRecords(saving: saves, deleting: [])
        }
    }

    /// Everything a client can read: each record by ID, the live records a fetch from nil
    /// returns per zone (name → change tag), and a query's matches.
    struct Answers: Equatable {
        var records: [RecordID: String] = [:]
        var missing: Set<RecordID> = []
        var live: [String: [String: String]] = [:]
        var notes: [String] = []
    }

    static func answers(_ database: Database) async throws -> Answers {
        var answers = Answers()
        for (id, result) in try await database.records(for: allIDs) {
            switch result {
            case .success(let record): answers.records[id] = "\(record.recordChangeTag ?? "")|\(record["n"].map { "\($0)" } ?? "")"
            case .failure: answers.missing.insert(id)
            }
        }
        for zone in zones {
            let changes = try await database.fetchZoneChanges(in: zone, since: nil)
            answers.live[zone.zoneName] = Dictionary(
                uniqueKeysWithValues: changes.changedRecords.map { ($0.recordID.recordName, $0.recordChangeTag ?? "") })
        }
        let query = RecordQuery(recordType: "Note", predicates: [QueryPredicate("n", .greaterThan, .int64(10))])
        if let page = try? await database.records(matching: query, resultsLimit: 1000) {
            answers.notes = page.records.map { $0.recordID.description }.sorted()
        }
        return answers
    }

    @Test("compaction changes no answer, and a view rebuilt from the compacted log equals the live one", arguments: StoreKind.compactable, [1, 2, 3] as [UInt64])
    func compactedAnswersAsBefore(kind: StoreKind, seed: UInt64) async throws {
        try await withTemporaryDatabase(kind) { database in
            let view = try database.register(DatabaseCheckpointTests.Catalog.self)
            try await Self.randomHistory(database, seed: seed, steps: 120)
            let before = try await Self.answers(database)
            // Deletes kept, then dropped: neither changes what is live.
            for retention in [Duration.seconds(86_400), .zero] {
                let reports = try await database.compact(tombstoneRetention: retention)
                #expect(reports.count == Self.zones.count)
                #expect(try await Self.answers(database) == before)
                #expect(await view.current == (try database.rebuild(DatabaseCheckpointTests.Catalog.self)))
            }
        }
    }

    @Test("replaying a compacted log rebuilds the same key index and views as the full log", arguments: [4, 5] as [UInt64])
    func compactedReplayEqualsFullReplay(seed: UInt64) async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe, checkpointAfterEvents: .max)
            try await Self.randomHistory(database, seed: seed, steps: 150)
            let full = try database.rebuild(DatabaseCheckpointTests.Catalog.self)
            let before = try await Self.answers(database)
            try await database.compact(tombstoneRetention: .zero)
            try database.close()
            // No checkpoint: the key index is replayed from the compacted log alone.
            try? FileManager.default.removeItem(atPath: path + "/snapshots")
            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(reopened.openReport.zonesFromSnapshot == 0)
            #expect(try await Self.answers(reopened) == before)
            #expect(try reopened.rebuild(DatabaseCheckpointTests.Catalog.self) == full)
            // And it goes on: new commits on the compacted log.
            try await Self.randomHistory(reopened, seed: seed &+ 50, steps: 40)
            let after = try await Self.answers(reopened)
            try reopened.close()
            let again = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(try await Self.answers(again) == after)
            try again.close()
        }
    }

    @Test("a checkpoint from before dropped deletes is not replayed onto; one from after is")
    func checkpointAcrossExpiry() async throws {
        try await withStoreDirectory { path in
            let database = try await Database(directory: path, durability: .noSyncUnsafe)
            try await Self.randomHistory(database, seed: 9, steps: 60)
            try database.checkpoint()
            try await Self.randomHistory(database, seed: 10, steps: 60)
            let before = try await Self.answers(database)
            try await database.compact(tombstoneRetention: .zero)
            try database.close()
            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(try await Self.answers(reopened) == before)
            try reopened.checkpoint()
            try reopened.close()
            let again = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(again.openReport.zonesFromSnapshot == Self.zones.count)
            #expect(try await Self.answers(again) == before)
            try again.close()
        }
    }

    @Test("a zone token at the expiry offset gets an exact answer; one just below it gets changeTokenExpired", arguments: StoreKind.compactable)
    func tokenBoundary(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            let zone = ZoneID.default
            _ = try await database.modifyRecords(saving: (0..<5).map { makeRecord("r\($0)", zone: zone) }, deleting: [])
            let beforeDelete = try await database.fetchZoneChanges(in: zone, since: nil).changeToken
            try await database.delete(RecordID(recordName: "r1", zoneID: zone))
            let afterDelete = try await database.fetchZoneChanges(in: zone, since: beforeDelete).changeToken
            var edit = try await database.record(for: RecordID(recordName: "r2", zoneID: zone))
            edit["n"] = .int64(1)
            _ = try await database.save(edit)

            // Deletes kept: both tokens still get exact answers.
            try await database.compact(zone: zone, tombstoneRetention: .seconds(3600))
            let kept = try await database.fetchZoneChanges(in: zone, since: beforeDelete)
            #expect(kept.deletions.map(\.recordID.recordName) == ["r1"])
            #expect(kept.changedRecords.map(\.recordID.recordName) == ["r2"])

            // The delete dropped: the expiry offset is one past it, where `afterDelete` stands.
            try await database.compact(zone: zone, tombstoneRetention: .zero)
            let partition = try database.zone(zone).partition
            #expect(partition.expiryOffset == 6)
            let inside = try await database.fetchZoneChanges(in: zone, since: afterDelete)
            #expect(inside.changedRecords.map(\.recordID.recordName) == ["r2"] && inside.deletions.isEmpty)
            await expectError(.changeTokenExpired) { _ = try await database.fetchZoneChanges(in: zone, since: beforeDelete) }
            // From nil: every live record, once.
            let all = try await database.fetchZoneChanges(in: zone, since: nil)
            #expect(all.changedRecords.map(\.recordID.recordName).sorted() == ["r0", "r2", "r3", "r4"])
            #expect(all.deletions.isEmpty)
            // A record compacted away reads as gone, not as an error of the log.
            await expectError(.unknownItem) { _ = try await database.record(for: RecordID(recordName: "r1", zoneID: zone)) }
        }
    }

    /// A database whose segments roll every 4 KiB and whose zones compact automatically once
    /// half of their sealed log is dirty.
    static func smallSegmentDatabase(_ path: String) async throws -> Database {
        let log = try Log(directory: path, options: LogOptions(durability: .noSyncUnsafe, segmentBytes: 4096))
        return try await Database(
            directory: path, log: log, maximumItemsPerRequest: 400, checkpointAfterEvents: 10_000,
            compaction: CompactionPolicy(tombstoneRetention: .zero, dirtyRatioThreshold: 0.5), logger: .init(label: "test"))
    }

    @Test("an automatic compaction starts after the commit that makes the log dirty enough, and again when commits made while it ran left the log dirty")
    func backgroundCompactionFollowsUp() async throws {
        try await withStoreDirectory { path in
            let database = try await Self.smallSegmentDatabase(path)
            // One record edited again and again: every segment that rolls holds only versions
            // the next edit replaces.
            var record = makeRecord("edited")
            let saves = 400
            for round in 0..<saves {
                record["n"] = .int64(Int64(round))
                record["text"] = .string(String(repeating: "x", count: 64))
                record = try await database.save(record)
            }
            await database.compactor.idle()
            let partition = try database.zone(.default).partition
            #expect(partition.dirtyRatio < 0.5, "a compaction ran after the last roll")
            var events = 0
            try partition.forEachRecord(from: partition.startOffset, to: nil) { _ in
                events += 1
                return true
            }
            #expect(events < saves / 2, "the replaced versions are gone: \(events) events left of \(saves)")
            #expect(try await database.record(for: record.recordID)["n"] == .int64(Int64(saves - 1)))
            try database.close()
        }
    }

    @Test("a zone that only ever created records is not compacted in the background, before or after a reopen; its first edit makes it due")
    func insertOnlyZoneIsLeftAlone() async throws {
        try await withStoreDirectory { path in
            /// Creates `count` records named from `first` on, one commit each: every commit may roll a 4 KiB segment.
            func create(_ database: Database, from first: Int, count: Int) async throws {
                for index in first..<(first + count) {
                    var record = makeRecord("created-\(index)")
                    record["text"] = .string(String(repeating: "x", count: 64))
                    _ = try await database.save(record)
                }
            }
            var database = try await Self.smallSegmentDatabase(path)
            try await create(database, from: 0, count: 200)
            await database.compactor.idle()
            #expect(try database.zone(.default).partition.dirtyRatio == 1, "never compacted: every sealed segment is dirty")
            try database.close()

            // Reopened from the checkpoint the close wrote: its counts show that nothing in the
            // log it covers was replaced.
            database = try await Self.smallSegmentDatabase(path)
            #expect(database.openReport.zonesFromSnapshot == 1)
            try await create(database, from: 200, count: 200)
            await database.compactor.idle()
            #expect(try database.zone(.default).partition.dirtyRatio == 1, "still never compacted")
            try database.close()

            // Reopened without a checkpoint: the replay from the log's start sees every event.
            try FileManager.default.removeItem(atPath: path + "/snapshots")
            database = try await Self.smallSegmentDatabase(path)
            #expect(database.openReport.zonesFromSnapshot == 0)
            try await create(database, from: 400, count: 100)
            await database.compactor.idle()
            #expect(try database.zone(.default).partition.dirtyRatio == 1, "still never compacted")

            // One edit: the next commits find the log due, and it is compacted.
            var edited = try await database.record(for: RecordID(recordName: "created-0"))
            edited["text"] = .string("edited")
            _ = try await database.save(edited)
            try await create(database, from: 500, count: 40)
            await database.compactor.idle()
            #expect(try database.zone(.default).partition.dirtyRatio < 0.5, "compacted once a version was replaced")
            #expect(try await database.record(for: RecordID(recordName: "created-0"))["text"] == .string("edited"))
            try database.close()
        }
    }

    @Test("writers keep committing while a compaction runs, and lose nothing")
    func writersDuringCompaction() async throws {
        try await withStoreDirectory { path in
            let database = try await Self.smallSegmentDatabase(path)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for round in 0..<60 {
                            var record = makeRecord("w\(writer)-\(round % 7)")
                            if let existing = try? await database.record(for: record.recordID) { record = existing }
                            record["n"] = .int64(Int64(round))
                            _ = try await database.save(record)
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<3 { try await database.compact(tombstoneRetention: .zero) }
                }
                try await group.waitForAll()
            }
            await database.compactor.idle()
            // Background compactions ran too (small segments fill and roll).
            let partition = try database.zone(.default).partition
            #expect(partition.dirtyRatio < 1)
            for writer in 0..<4 {
                for slot in 0..<7 {
                    let record = try await database.record(for: RecordID(recordName: "w\(writer)-\(slot)"))
                    #expect(record["n"] == .int64(Int64(slot <= 3 ? 56 + slot : 49 + slot)))
                }
            }
            let live = try await database.fetchZoneChanges(in: .default, since: nil)
            #expect(live.changedRecords.count == 28)
            try database.close()
            let reopened = try await Database(directory: path, durability: .noSyncUnsafe)
            #expect(try await reopened.fetchZoneChanges(in: .default, since: nil).changedRecords.count == 28)
            try reopened.close()
        }
    }
}

extension DatabaseCompactionTests {
    /// The save offset a change tag names (`<incarnation>-<offset>`, base 36).
    static func offset(ofTag tag: String?) -> Int64? {
        tag.flatMap { $0.split(separator: "-").last }.flatMap { Int64($0, radix: 36) }
    }

    @Test("a version compaction removed reads as gone, the latest as itself; a conflict on it has a nil ancestor", arguments: StoreKind.compactable)
    func removedVersionIsGone(kind: StoreKind) async throws {
        try await withTemporaryDatabase(kind) { database in
            var record = try await database.save(makeRecord("r", ["n": .int64(1)]))
            let stale = record
            let firstTag = try #require(record.recordChangeTag)
            record["n"] = .int64(2)
            record = try await database.save(record)
            let secondTag = try #require(record.recordChangeTag)
            let zone = try database.zone(.default)
            guard case .found(let first) = try zone.ancestor(of: "r", changeTag: firstTag) else {
                Issue.record("the first version is in the log before compaction")
                return
            }
            #expect(first["n"] == .int64(1))
            try await database.compact()
            guard case .notInLog = try zone.ancestor(of: "r", changeTag: firstTag) else {
                Issue.record("the first version still reads after compaction removed it")
                return
            }
            guard case .found(let latest) = try zone.ancestor(of: "r", changeTag: secondTag) else {
                Issue.record("the latest version survives compaction")
                return
            }
            #expect(latest["n"] == .int64(2))
            var edited = stale
            edited["n"] = .int64(3)
            let error = await expectError(.serverRecordChanged) { _ = try await database.save(edited) }
            #expect(error?.serverRecord?["n"] == .int64(2))
            #expect(error?.ancestorRecord == nil, "compaction removed the version the tag names")
        }
    }
}
