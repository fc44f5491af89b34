import Foundation
import RecordLog
import RecordStore
import RecordSync
import Testing

@Suite("Sync: the tools show sync events")
struct SyncInspectionTests {
    @Test("a device's log reads as pending, acknowledged and state events, and synced records carry the remote's tag")
    func describesSyncEvents() async throws {
        let world = try await SyncWorld.make(devices: 1)
        defer { try? world.close() }
        let device = world.devices[0]
        try await world.engines[0].fetchChanges()
        try await device.put(note("n1", "Buy milk"))
        try await device.delete(RecordID(recordName: "n1", zoneID: SyncWorld.zone))
        try await device.put(note("n2", "Call Anna"))
        try await world.engines[0].sendChanges()
        try await world.engines[0].fetchChanges()
        let path = try #require(device.directory)
        try device.close()

        let log = try Log(directory: path, options: LogOptions(readOnly: true))
        defer { try? log.close() }
        var meanings: [String] = []
        var syncTags: [String: String] = [:]
        try log.partition(named: SyncWorld.zone.zoneName).forEachRecord(from: 0) { record in
            let event = EventDescription.describe(record, zoneName: SyncWorld.zone.zoneName)
            if let sync = event.sync { meanings.append(sync) }
            if let tag = event.syncChangeTag, let key = record.keyString { syncTags[key] = tag }
            return true
        }
        #expect(meanings.first == "zone sync state: no token yet, marking existing records pending")
        #expect(meanings.contains("pending save of n1 (text)"))
        #expect(meanings.contains("pending delete of n1"))
        #expect(meanings.contains("pending save of n2 (text)"))
        #expect(meanings.contains("acknowledged n1"))
        #expect(meanings.contains("acknowledged n2"))
        #expect(meanings.contains("zone sync state: token saved"))
        let remoteTag = try await world.remote.record(for: RecordID(recordName: "n2", zoneID: SyncWorld.zone)).recordChangeTag
        #expect(syncTags["n2"] == remoteTag)
    }
}
