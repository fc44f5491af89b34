import Foundation
import RecordLog
import RecordStore
import RecordSync
import StoreKindSupport
import TestSupport
import Testing

@Suite("Sync: two devices and a remote")
struct SyncEngineTests {
    @Test("saves, edits and deletes on every side converge, and every device equals the remote", arguments: StoreKind.allCases)
    func convergence(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2)
        defer { try? world.close() }
        let (a, b) = (world.devices[0], world.devices[1])
        try await a.put(folder("f1", "Work"))
        try await a.put(note("n1", "Call Anna", folder: "f1"))
        try await b.put(note("n2", "Buy milk"))
        try await world.syncUntilQuiet(rounds: 2)
        try await b.edit("n1") { $0["text"] = .string("Call Anna on Monday") }
        try await a.delete(RecordID(recordName: "n2", zoneID: SyncWorld.zone))
        try await a.put(note("n3", "Water plants", folder: "f1"))
        try await world.syncUntilQuiet(rounds: 2)

        let remote = try await appRecords(world.remote)
        #expect(try await appRecords(a) == remote)
        #expect(try await appRecords(b) == remote)
        let records = try #require(remote[SyncWorld.zone])
        #expect(Set(records.keys) == ["f1", "n1", "n3"])
        #expect(records["n1"]?.fields["text"] == .string("Call Anna on Monday"))
        #expect(try await a.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone))["text"] == .string("Call Anna on Monday"))
        for engine in world.engines { #expect(try await engine.pendingChangeCount() == 0) }
    }

    @Test("a save is pending from the commit that made it, survives a reopen, and is gone once acknowledged", arguments: StoreKind.allCases)
    func outboxIsDurableWithTheEdit(remote kind: StoreKind) async throws {
        let remote = try await openTemporaryDatabase(kind)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("SyncDevice-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? remote.removeTemporaryDirectory()
        }
        var device = try await Database(directory: path, durability: .fsync)
        try await device.createZone(SyncWorld.zone)
        var engine = SyncEngine(local: device, remote: remote, configuration: .init(automaticallySync: false))
        try await engine.fetchChanges()  // the zone becomes synced
        try await device.put(note("n1", "Buy milk"))
        #expect(try await engine.pendingChangeCount() == 1)
        try device.close()

        device = try await Database(directory: path, durability: .fsync)
        engine = SyncEngine(local: device, remote: remote, configuration: .init(automaticallySync: false))
        #expect(try await engine.pendingChangeCount() == 1)
        try await engine.sendChanges()
        #expect(try await engine.pendingChangeCount() == 0)
        #expect(try await remote.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone))["text"] == .string("Buy milk"))
        try device.close()
    }

    @Test(
        "pending changes fold: save A, B, A sends two saves; save then delete, a delete; delete then save, a save",
        arguments: StoreKind.allCases)
    func pendingChangesFold(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 1)
        defer { try? world.close() }
        let (device, engine) = (world.devices[0], world.engines[0])
        try await device.put(note("gone", "x"))
        try await device.put(note("back", "old"))
        try await engine.sendChanges()
        let remoteEnd = try await world.remote.fetchZoneChanges(in: SyncWorld.zone, since: nil).changeToken

        try await device.put(note("a", "1"))
        try await device.put(note("b", "2"))
        try await device.edit("a") { $0["text"] = .string("3") }
        try await device.delete(RecordID(recordName: "gone", zoneID: SyncWorld.zone))
        try await device.delete(RecordID(recordName: "back", zoneID: SyncWorld.zone))
        try await device.put(note("back", "new"))
        #expect(try await engine.pendingChangeCount() == 4)

        var events: [SyncEvent] = []
        let stream = engine.events()
        try await engine.sendChanges()
        await engine.stop()
        for await event in stream { events.append(event) }
        var saved: [String] = []
        var deleted: [String] = []
        for case .sentChanges(_, _, let savedIDs, let deletedIDs, let failed) in events {
            #expect(failed.isEmpty)
            saved += savedIDs.map(\.recordName)
            deleted += deletedIDs.map(\.recordName)
        }
        // "back" was deleted and saved again: sent as a new record, it meets the remote's old
        // one and is merged (the local edit is later), in a second exchange.
        #expect(saved.sorted() == ["a", "b", "back"])
        #expect(deleted == ["gone"])
        let changes = try await world.remote.fetchZoneChanges(in: SyncWorld.zone, since: remoteEnd)
        #expect(Set(changes.changedRecords.map(\.recordID.recordName)) == ["a", "b", "back"])
        #expect(changes.deletions.map(\.recordID.recordName) == ["gone"])
        #expect(try await appRecords(world.remote)[SyncWorld.zone]?["a"]?.fields["text"] == .string("3"))
        #expect(try await appRecords(world.remote)[SyncWorld.zone]?["back"]?.fields["text"] == .string("new"))
    }

    @Test("conflicting edits merge field by field against the ancestor; both devices end equal", arguments: StoreKind.allCases)
    func threeWayMerge(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2)
        defer { try? world.close() }
        let (a, b) = (world.devices[0], world.devices[1])
        var record = note("n1", "text")
        record["title"] = .string("Title")
        record["tag"] = .string("none")
        try await a.put(record)
        try await world.syncUntilQuiet(rounds: 1)
        // Offline, each changes another field; both change "tag", b later.
        try await a.edit("n1") {
            $0["title"] = .string("Title by A")
            $0["tag"] = .string("a")
        }
        try await b.edit("n1") {
            $0["text"] = .string("text by B")
            $0["tag"] = .string("b")
        }
        let editA = try #require(try await a.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone)).syncAuthor)
        let editB = try #require(try await b.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone)).syncAuthor)
        #expect(editB.editedAt >= editA.editedAt)
        try await world.engines[0].sendChanges()
        try await world.engines[1].sendChanges()  // meets A's version: merged
        try await world.syncUntilQuiet(rounds: 2)
        let merged = try #require(try await appRecords(world.remote)[SyncWorld.zone]?["n1"])
        #expect(merged.fields["title"] == .string("Title by A"))
        #expect(merged.fields["text"] == .string("text by B"))
        // Changed on both sides: the later edit wins — B's, though A's reached the remote first
        // (in the same millisecond, the greater device identity's).
        #expect(merged.fields["tag"] == .string(editB.isLater(than: editA) ? "b" : "a"))
        #expect(try await appRecords(a) == appRecords(world.remote))
        #expect(try await appRecords(b) == appRecords(world.remote))
    }

    @Test("a zone deleted on the remote is deleted on every device", arguments: StoreKind.allCases)
    func remoteZoneDeletion(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2)
        defer { try? world.close() }
        let other = ZoneID(zoneName: "Photos")
        try await world.devices[0].createZone(other)
        try await world.devices[0].put(Record(recordType: "Photo", recordID: RecordID(recordName: "p1", zoneID: other)))
        try await world.syncUntilQuiet(rounds: 2)
        #expect(try await world.devices[1].allZones().contains(other))
        try await world.remote.deleteZone(other)
        try await world.syncUntilQuiet(rounds: 1)
        for device in world.devices { #expect(try await !device.allZones().contains(other)) }
    }

    @Test("pages of one record converge, a note arriving before its folder included", arguments: StoreKind.allCases)
    func pagesOfOneRecord(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2, resultsLimit: 1)
        defer { try? world.close() }
        let a = world.devices[0]
        try await a.put(folder("f1", "Work"))
        try await a.put(note("n1", "one", folder: "f1"))
        try await a.put(note("n2", "two", folder: "f1"))
        try await a.edit("f1") { $0["title"] = .string("Work!") }  // the folder's latest change is last
        try await a.delete(RecordID(recordName: "n2", zoneID: SyncWorld.zone))
        try await world.syncUntilQuiet(rounds: 2)
        let remote = try await appRecords(world.remote)
        #expect(try await appRecords(world.devices[1]) == remote)
        #expect(Set(remote[SyncWorld.zone]?.keys ?? [:].keys) == ["f1", "n1"])
        // The references hold on the device: deleting the folder there deletes its note.
        try await world.devices[1].delete(RecordID(recordName: "f1", zoneID: SyncWorld.zone))
        try await world.syncUntilQuiet(rounds: 2)
        #expect(try await appRecords(world.remote)[SyncWorld.zone]?.isEmpty == true)
        #expect(try await appRecords(a)[SyncWorld.zone]?.isEmpty == true)
    }

    // The remote compacts itself (Database.compact()): not on PostgreSQL, whose cluster compacts its rows.
    @Test(
        "a device's first sync pages through a remote zone whose compaction dropped deletes, and ends equal to it",
        arguments: StoreKind.compactable)
    func firstSyncPagesAcrossDroppedDeletes(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2, resultsLimit: 2)
        defer { try? world.close() }
        let a = world.devices[0]
        for index in 0..<7 { try await a.put(note("n\(index)", "text \(index)")) }
        try await world.engines[0].sendChanges()
        try await a.delete(RecordID(recordName: "n6", zoneID: SyncWorld.zone))
        try await world.engines[0].sendChanges()
        // A later send: the latest client-token commit is kept by compaction, the delete is not.
        try await a.put(note("n7", "later"))
        try await world.engines[0].sendChanges()
        _ = try await world.remote.compact(zone: SyncWorld.zone, tombstoneRetention: .zero)

        var events: [SyncEvent] = []
        let stream = world.engines[1].events()
        try await world.engines[1].fetchChanges()
        await world.engines[1].stop()
        for await event in stream { events.append(event) }
        #expect(!events.contains(.tokenExpired(SyncWorld.zone)), "pages of a fetch from nil chain past the expiry offset")
        let remote = try await appRecords(world.remote)
        #expect(Set(remote[SyncWorld.zone]?.keys ?? [:].keys) == ["n0", "n1", "n2", "n3", "n4", "n5", "n7"])
        #expect(try await appRecords(world.devices[1]) == remote)
    }

    // The remote compacts itself (Database.compact()): not on PostgreSQL, whose cluster compacts its rows.
    @Test(
        "a compacted remote answers changeTokenExpired; the device refetches and deletes what the remote no longer has",
        arguments: StoreKind.compactable)
    func expiredTokenReconciles(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 2)
        defer { try? world.close() }
        let (a, b) = (world.devices[0], world.devices[1])
        try await a.put(note("n1", "keep"))
        try await a.put(note("n2", "drop"))
        try await world.syncUntilQuiet(rounds: 1)
        // b goes offline; a deletes n2, and the remote compacts the delete away.
        try await a.delete(RecordID(recordName: "n2", zoneID: SyncWorld.zone))
        try await a.put(note("n3", "new"))
        try await world.engines[0].sendChanges()
        // A later send: compaction keeps the commit of the zone's latest client change token
        // (FORMAT.md §13), and the delete must not be in it.
        try await a.put(note("n5", "later"))
        try await world.engines[0].sendChanges()
        _ = try await world.remote.compact(zone: SyncWorld.zone, tombstoneRetention: .zero)
        try await b.put(note("n4", "offline edit"))  // a pending change the reconciliation keeps

        var events: [SyncEvent] = []
        let stream = world.engines[1].events()
        try await world.engines[1].fetchChanges()
        try await world.engines[1].sendChanges()
        await world.engines[1].stop()
        for await event in stream { events.append(event) }
        #expect(events.contains(.tokenExpired(SyncWorld.zone)))
        #expect(events.contains(.reconciled(SyncWorld.zone, removed: [RecordID(recordName: "n2", zoneID: SyncWorld.zone)])))
        let remote = try await appRecords(world.remote)
        #expect(Set(remote[SyncWorld.zone]?.keys ?? [:].keys) == ["n1", "n3", "n4", "n5"])
        #expect(try await appRecords(b) == remote)
    }

    @Test("a store that existed before sync uploads its records; system records never leave the device", arguments: StoreKind.allCases)
    func adoptsExistingRecords(remote kind: StoreKind) async throws {
        let remote = try await openTemporaryDatabase(kind)
        let device = try await Database.temporary()
        defer {
            try? device.removeTemporaryDirectory()
            try? remote.removeTemporaryDirectory()
        }
        try await device.createZone(SyncWorld.zone)
        for index in 0..<30 { try await device.put(note("n\(index)", "note \(index)")) }
        let engine = SyncEngine(local: device, remote: remote, configuration: .init(automaticallySync: false))
        try await engine.sendChanges()
        #expect(try await appRecords(remote) == appRecords(device))
        #expect(try await appRecords(remote)[SyncWorld.zone]?.count == 30)
        let all = try await remote.fetchZoneChanges(in: SyncWorld.zone, since: nil).changedRecords
        #expect(!all.contains { $0.recordID.recordName.hasPrefix("_") })
    }

    @Test("apps cannot write or delete the store's system records", arguments: StoreKind.allCases)
    func systemRecordsAreRefused(remote kind: StoreKind) async throws {
        let world = try await SyncWorld.make(remote: kind, devices: 1)
        defer { try? world.close() }
        try await world.engines[0].fetchChanges()
        let device = world.devices[0]
        await #expect(throws: RecordStoreError.self) {
            try await device.put(Record(recordType: "Note", recordID: RecordID(recordName: "_sync.zone", zoneID: SyncWorld.zone)))
        }
        await #expect(throws: RecordStoreError.self) {
            try await device.delete(RecordID(recordName: "_sync.zone", zoneID: SyncWorld.zone))
        }
        #expect(try await world.engines[0].pendingChangeCount() == 0)
    }
}

@Suite("Sync: what the app decides and sees")
struct SyncAppHooksTests {
    @Test("an app's conflict resolver decides a conflict; every send's answer names the batch it answers", arguments: StoreKind.allCases)
    func customResolverAndBatchNames(remote kind: StoreKind) async throws {
        // A resolver that keeps the remote's record and appends "(seen)" to the local title.
        let world = try await SyncWorld.make(remote: kind, devices: 2, resolver: { conflict in
            var record = conflict.serverRecord
            if case .string(let text)? = conflict.localRecord["text"] { record["text"] = .string(text + " (seen)") }
            return record
        })
        defer { try? world.close() }
        let (a, b) = (world.devices[0], world.devices[1])
        try await a.put(note("n1", "v1"))
        try await world.syncUntilQuiet(rounds: 1)
        try await a.edit("n1") { $0["text"] = .string("from A") }
        try await b.edit("n1") { $0["text"] = .string("from B") }
        try await world.engines[0].sendChanges()
        let stream = world.engines[1].events()
        try await world.engines[1].sendChanges()
        await world.engines[1].stop()
        var announced: [Data] = []
        var answered: [Data] = []
        var resolved: [RecordID] = []
        for await event in stream {
            switch event {
            case .willSendChanges(_, let batch, _): announced.append(batch)
            case .sentChanges(_, let batch, _, _, _): answered.append(batch)
            case .conflictResolved(let id): resolved.append(id)
            default: break
            }
        }
        #expect(announced == answered)
        #expect(announced.count == 2)  // the batch, then the merge sent again: each its own token
        #expect(Set(announced).count == 2)
        #expect(resolved == [RecordID(recordName: "n1", zoneID: SyncWorld.zone)])
        #expect(try await world.remote.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone))["text"] == .string("from B (seen)"))
    }
}

// Files only: the remote's commits must be smaller than the records (LogOptions.maxBatchBytes),
// which only a store on files lets a test choose.
@Suite("Sync: large records")
struct SyncLargeRecordTests {
    @Test("records too large for one commit together are sent and applied in smaller batches, and still converge")
    func splitsLargeBatches() async throws {
        var options = LogOptions(durability: .noSyncUnsafe)
        options.maxBatchBytes = 60_000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("SyncLarge-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let remote = try await Database(directory: root + "/remote", options: options)
        let a = try await Database(directory: root + "/a", options: options)
        let b = try await Database(directory: root + "/b", options: options)
        try await a.createZone(SyncWorld.zone)
        let engines = [a, b].map { SyncEngine(local: $0, remote: remote, configuration: .init(automaticallySync: false)) }
        // Each record's text compresses poorly enough that ten do not fit one 60 kB commit.
        var random = SeededGenerator(seed: 7)
        for index in 0..<10 {
            let text = String(decoding: random.bytes(16_000).map { 97 + $0 % 26 }, as: UTF8.self)
            try await a.put(note("big\(index)", text))
        }
        try await engines[0].sendChanges()
        try await engines[1].fetchChanges()
        #expect(try await appRecords(remote)[SyncWorld.zone]?.count == 10)
        #expect(try await appRecords(b) == appRecords(remote))
        #expect(try await engines[0].pendingChangeCount() == 0)
        for database in [a, b, remote] { try database.close() }
    }
}
