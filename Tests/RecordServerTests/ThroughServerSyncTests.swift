import Foundation
import RecordClient
import RecordStore
import RecordSync
import TestSupport
import Testing

/// The Sync issue's property test over HTTP: three device stores, each with a `SyncEngine` over
/// an `HTTPRemoteDatabase`, make random edits, deletes, folder deletions and offline periods and
/// sync in random orders through a server on loopback; in the end every device equals the
/// server's database.
@Suite struct ThroughServerSyncTests {
    static let zone = ZoneID(zoneName: "Notes")

    enum Step: CaseIterable { case addNote, editNote, deleteNote, addFolder, renameFolder, deleteFolder, toggleOffline, sync }

    @Test("three devices syncing through recordlog-server converge to the server's database", arguments: ServerStorage.allCases, 0..<3)
    func converge(storage: ServerStorage, seed: UInt64) async throws {
        var random = SeededGenerator(seed: 0xC0FF_EE00 + seed)
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        var devices: [Database] = []
        var engines: [SyncEngine] = []
        for _ in 0..<3 {
            let device = try await Database.temporary()
            try await device.createZone(Self.zone)
            devices.append(device)
            engines.append(
                SyncEngine(local: device, remote: server.remote(), configuration: .init(automaticallySync: false, resultsLimit: seed == 0 ? 1 : 50)))
        }
        var offline = [false, false, false]
        var made = 0
        var history: [String] = []
        for _ in 0..<40 {
            let index = Int.random(in: 0..<devices.count, using: &random)
            let device = devices[index]
            let records = try await appRecords(device)
            let notes = records.filter { $0.value.type == "Note" }.keys.sorted()
            let folders = records.filter { $0.value.type == "Folder" }.keys.sorted()
            let step = Step.allCases.randomElement(using: &random) ?? .sync
            history.append("\(index):\(step)")
            switch step {
            case .addNote:
                made += 1
                let parent = Bool.random(using: &random) ? folders.randomElement(using: &random) : nil
                _ = try await device.save(Self.note("n\(made)", "note \(made)", folder: parent))
            case .editNote:
                guard let name = notes.randomElement(using: &random) else { continue }
                var record = try await device.record(for: RecordID(recordName: name, zoneID: Self.zone))
                record["text"] = .string("edit \(Int.random(in: 0..<1000, using: &random))")
                _ = try await device.save(record)
            case .deleteNote, .deleteFolder:
                let pool = step == .deleteNote ? notes : folders
                guard let name = pool.randomElement(using: &random) else { continue }
                try await device.delete(RecordID(recordName: name, zoneID: Self.zone))
            case .addFolder:
                made += 1
                var record = Record(recordType: "Folder", recordID: RecordID(recordName: "f\(made)", zoneID: Self.zone))
                record["title"] = .string("folder \(made)")
                _ = try await device.save(record)
            case .renameFolder:
                guard let name = folders.randomElement(using: &random) else { continue }
                var record = try await device.record(for: RecordID(recordName: name, zoneID: Self.zone))
                record["title"] = .string("renamed \(Int.random(in: 0..<1000, using: &random))")
                _ = try await device.save(record)
            case .toggleOffline:
                offline[index].toggle()
            case .sync:
                guard !offline[index] else { continue }
                try await engines[index].sendChanges()
                try await engines[index].fetchChanges()
            }
        }
        for _ in 0..<3 {
            for engine in engines {
                try await engine.sendChanges()
                try await engine.fetchChanges()
            }
        }
        let expected = try await appRecords(remote)
        // Something crossed the server (so equality is not that of empty stores).
        #expect(!expected.isEmpty, "nothing reached the server after \(history)")
        for (index, device) in devices.enumerated() {
            #expect(try await appRecords(device) == expected, "device \(index) differs from the server after \(history)")
            #expect(try await engines[index].pendingChangeCount() == 0)
        }
        for engine in engines { await engine.stop() }
        for device in devices { try device.removeTemporaryDirectory() }
        try await server.stopAndRemove()
    }

    static func note(_ name: String, _ text: String, folder: String?) -> Record {
        var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        record["text"] = .string(text)
        if let folder { record["folder"] = .reference(Reference(recordID: RecordID(recordName: folder, zoneID: zone), action: .deleteSelf)) }
        return record
    }

    /// The app's records of the zone (sync's own system records left out): name → type and
    /// fields, read through `RemoteDatabase`, which a device's store and the server both are.
    func appRecords(_ database: any RemoteDatabase) async throws -> [String: AppRecord] {
        var records: [String: AppRecord] = [:]
        var token: ServerChangeToken?
        var more = true
        while more {
            let result = try await database.fetchZoneChanges(
                inZonesWith: [Self.zone], configurations: [Self.zone: ZoneChangesConfiguration(previousServerChangeToken: token)])
            let page = try #require(try result[Self.zone]?.get())
            for record in page.changedRecords where !record.recordID.recordName.hasPrefix("_") {
                records[record.recordID.recordName] = AppRecord(record)
            }
            for deletion in page.deletions { records[deletion.recordID.recordName] = nil }
            token = page.changeToken
            more = page.moreComing
        }
        return records
    }

    /// What the app sees of a record: its type and fields.
    struct AppRecord: Equatable, CustomStringConvertible {
        var type: String
        var fields: [String: FieldValue]

        init(_ record: Record) {
            type = record.recordType
            fields = Dictionary(uniqueKeysWithValues: record.allKeys().compactMap { key in record[key].map { (key, $0) } })
        }

        var description: String { "\(type)\(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })" }
    }
}
