#if canImport(Glibc)
import Glibc
#endif
import Foundation
import RecordLog
import RecordStore
import RecordSync
import TestSupport
import Testing

/// Real processes killed with SIGKILL while they sync (the `sync-crash-child` executable), then
/// the next run: every change reaches the remote exactly once.
@Suite("Sync: a device killed while it syncs")
struct SyncCrashTests {
    static let zone = ZoneID(zoneName: "Notes")

    /// Two store directories, removed afterwards.
    func withStores(_ body: (_ device: String, _ remote: String) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("SyncCrash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(root.appendingPathComponent("device").path, root.appendingPathComponent("remote").path)
    }

    /// A device store whose Notes zone is synced with the remote at `remote`, after `prepare`
    /// unless not `sending` (then what `prepare` wrote stays pending).
    func makeSyncedDevice(
        _ device: String, remote: String, prepare: (Database) async throws -> Void = { _ in }, sending: Bool = true
    ) async throws {
        let local = try await Database(directory: device, durability: .fsync)
        let server = try await Database(directory: remote, durability: .fsync)
        try await local.createZone(Self.zone)
        let engine = SyncEngine(local: local, remote: server, configuration: .init(automaticallySync: false))
        try await engine.fetchChanges()
        try await prepare(local)
        if sending { try await engine.sendChanges() }
        try local.close()
        try server.close()
    }

    /// How many save and delete events each record has in the Notes zone of the store at `path`.
    func zoneEvents(_ path: String) throws -> [String: (saves: Int, deletes: Int)] {
        let log = try Log(directory: path, options: LogOptions(readOnly: true))
        defer { try? log.close() }
        var events: [String: (saves: Int, deletes: Int)] = [:]
        try log.partition(named: Self.zone.zoneName).forEachRecord(from: 0) { record in
            guard let key = record.keyString else { return true }
            var counts = events[key] ?? (0, 0)
            if record.value == nil { counts.deletes += 1 } else { counts.saves += 1 }
            events[key] = counts
            return true
        }
        return events
    }

    /// Syncs the device with the remote once more, in this process, and checks that both hold the
    /// same records and nothing is pending.
    func finishAndCompare(_ device: String, _ remote: String) async throws {
        let local = try await Database(directory: device, durability: .fsync)
        let server = try await Database(directory: remote, durability: .fsync)
        let engine = SyncEngine(local: local, remote: server, configuration: .init(automaticallySync: false))
        try await engine.sendChanges()
        try await engine.fetchChanges()
        #expect(try await engine.pendingChangeCount() == 0)
        #expect(try await appRecords(local) == appRecords(server))
        try local.close()
        try server.close()
    }

    @Test("killed between saving and sending: every acknowledged save is pending after the crash and reaches the remote once")
    func killedBeforeSending() async throws {
        let child = try #require(ChildProcess.builtExecutable("sync-crash-child"), "build the package first")
        try await withStores { device, remote in
            try await makeSyncedDevice(device, remote: remote)
            let outcome = try await ChildProcess.run(child, ["save", device, "25"])
            #expect(outcome.status == SIGKILL, "\(outcome.outputText) \(outcome.errorText)")
            let saved = outcome.outputText.split(separator: "\n").filter { $0.hasPrefix("saved ") }.count
            #expect(saved == 25)
            try await finishAndCompare(device, remote)
            let events = try zoneEvents(remote)
            for index in 0..<saved {
                #expect(events["crash\(index)"]?.saves == 1, "crash\(index): \(String(describing: events["crash\(index)"]))")
            }
        }
    }

    @Test("killed after the remote answered, or after acknowledging: each change is applied on the remote exactly once", arguments: SyncStep.sending)
    func killedWhileSending(_ step: SyncStep) async throws {
        let child = try #require(ChildProcess.builtExecutable("sync-crash-child"), "build the package first")
        try await withStores { device, remote in
            try await makeSyncedDevice(device, remote: remote) { local in
                var old = Record(recordType: "Note", recordID: RecordID(recordName: "old", zoneID: Self.zone))
                old["text"] = .string("synced before")
                _ = try await local.save(old)
                var edited = Record(recordType: "Note", recordID: RecordID(recordName: "edited", zoneID: Self.zone))
                edited["text"] = .string("v1")
                _ = try await local.save(edited)
            }
            // Offline changes: new notes, an edit of a synced note, a delete of another.
            let local = try await Database(directory: device, durability: .fsync)
            for index in 0..<12 {
                var note = Record(recordType: "Note", recordID: RecordID(recordName: "new\(index)", zoneID: Self.zone))
                note["text"] = .string("new \(index)")
                _ = try await local.save(note)
            }
            var edited = try await local.record(for: RecordID(recordName: "edited", zoneID: Self.zone))
            edited["text"] = .string("v2")
            _ = try await local.save(edited)
            try await local.delete(RecordID(recordName: "old", zoneID: Self.zone))
            try local.close()

            let outcome = try await ChildProcess.run(child, ["send", device, remote, step.rawValue])
            #expect(outcome.status == SIGKILL, "the child did not die at \(step): \(outcome.outputText) \(outcome.errorText)")
            try await finishAndCompare(device, remote)
            let events = try zoneEvents(remote)
            for index in 0..<12 { #expect(events["new\(index)"]?.saves == 1, "new\(index) saved \(events["new\(index)"]?.saves ?? 0) times") }
            #expect(events["edited"]?.saves == 2)
            #expect(events["old"]?.saves == 1)
            #expect(events["old"]?.deletes == 1)
        }
    }

    @Test(
        "killed while adopting a store that existed before sync: the next run marks the rest, and every record reaches the remote once",
        arguments: [SyncStep.adoptionBegun, .adoptionMarked])
    func killedWhileAdopting(_ step: SyncStep) async throws {
        let child = try #require(ChildProcess.builtExecutable("sync-crash-child"), "build the package first")
        try await withStores { device, remote in
            // More records than one commit of marks (500), so a kill after the first leaves some unmarked.
            let count = 1_200
            let local = try await Database(directory: device, durability: .fsync)
            try await local.createZone(Self.zone)
            for start in stride(from: 0, to: count, by: 400) {
                let notes = (start..<min(start + 400, count)).map { index in
                    var note = Record(recordType: "Note", recordID: RecordID(recordName: "pre\(index)", zoneID: Self.zone))
                    note["text"] = .string("written before sync \(index)")
                    return note
                }
                _ = try await local.modifyRecords(saving: notes, deleting: [])
            }
            try local.close()

            let outcome = try await ChildProcess.run(child, ["send", device, remote, step.rawValue])
            #expect(outcome.status == SIGKILL, "the child did not die at \(step): \(outcome.outputText) \(outcome.errorText)")
            // Adoption comes before any send: the remote has no note yet (nor, maybe, the zone).
            #expect(((try? zoneEvents(remote)) ?? [:]).keys.filter { $0.hasPrefix("pre") }.isEmpty, "nothing was sent before the kill")
            try await finishAndCompare(device, remote)
            let events = try zoneEvents(remote)
            #expect(events.keys.filter { $0.hasPrefix("pre") }.count == count)
            for index in 0..<count where events["pre\(index)"]?.saves != 1 {
                Issue.record("pre\(index) saved \(events["pre\(index)"]?.saves ?? 0) times on the remote")
            }
        }
    }

    /// The largest commit of the stores in the splitting tests: ten of their notes do not fit one.
    static let smallBatchBytes = 60_000

    /// Ten notes of 16 kB of poorly compressing text each: too large for one commit of
    /// `smallBatchBytes` together.
    static func bigNotes() -> [Record] {
        var random = SeededGenerator(seed: 11)
        return (0..<10).map { index in
            var note = Record(recordType: "Note", recordID: RecordID(recordName: "big\(index)", zoneID: Self.zone))
            note["text"] = .string(String(decoding: random.bytes(16_000).map { 97 + $0 % 26 }, as: UTF8.self))
            return note
        }
    }

    @Test("killed between the halves of an acknowledgement too large for one commit: each note reaches the remote once")
    func killedBetweenAcknowledgementHalves() async throws {
        let child = try #require(ChildProcess.builtExecutable("sync-crash-child"), "build the package first")
        try await withStores { device, remote in
            try await makeSyncedDevice(
                device, remote: remote, prepare: { local in for note in Self.bigNotes() { _ = try await local.save(note) } }, sending: false)
            let outcome = try await ChildProcess.run(
                child, ["send", device, remote, SyncStep.acknowledgedInPart.rawValue, String(Self.smallBatchBytes)])
            #expect(outcome.status == SIGKILL, "the child did not die between the halves: \(outcome.outputText) \(outcome.errorText)")
            try await finishAndCompare(device, remote)
            let events = try zoneEvents(remote)
            for index in 0..<10 { #expect(events["big\(index)"]?.saves == 1, "big\(index) saved \(events["big\(index)"]?.saves ?? 0) times") }
        }
    }

    @Test("killed between the halves of a fetched page too large for one commit: the next fetch applies the rest, each note once")
    func killedBetweenAppliedHalves() async throws {
        let child = try #require(ChildProcess.builtExecutable("sync-crash-child"), "build the package first")
        try await withStores { device, remote in
            // A first note sent, so that the remote has the zone.
            try await makeSyncedDevice(device, remote: remote) { local in
                _ = try await local.save(Record(recordType: "Note", recordID: RecordID(recordName: "first", zoneID: Self.zone)))
            }
            let server = try await Database(directory: remote, durability: .fsync)
            for note in Self.bigNotes() { _ = try await server.save(note) }
            try server.close()
            let outcome = try await ChildProcess.run(
                child, ["fetch", device, remote, SyncStep.appliedInPart.rawValue, String(Self.smallBatchBytes)])
            #expect(outcome.status == SIGKILL, "the child did not die between the halves: \(outcome.outputText) \(outcome.errorText)")
            let applied = try zoneEvents(device).keys.filter { $0.hasPrefix("big") }.count
            #expect(applied > 0 && applied < 10, "only the first half is on the device: \(applied)")
            try await finishAndCompare(device, remote)
            let events = try zoneEvents(device)
            for index in 0..<10 { #expect(events["big\(index)"]?.saves == 1, "big\(index) applied \(events["big\(index)"]?.saves ?? 0) times") }
        }
    }
}
