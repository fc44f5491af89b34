import Foundation
import RecordStore
import RecordSync
import StoreKindSupport
import Testing

@Suite("Sync: automatic mode")
struct AutomaticSyncTests {
    /// Waits for the first event that `matches` on `events`.
    func first(_ events: AsyncStream<SyncEvent>, _ matches: (SyncEvent) -> Bool) async -> SyncEvent? {
        for await event in events where matches(event) { return event }
        return nil
    }

    @Test(
        "a save on one device reaches the other with no call: sent after the local commit, fetched on the remote's notification",
        .timeLimit(.minutes(10)), arguments: StoreKind.allCases)
    func saveTravels(remote kind: StoreKind) async throws {
        let remote = try await openTemporaryDatabase(kind)
        let a = try await Database.temporary()
        let b = try await Database.temporary()
        defer {
            for database in [a, b, remote] { try? database.removeTemporaryDirectory() }
        }
        try await a.createZone(SyncWorld.zone)
        let engineA = SyncEngine(local: a, remote: remote)
        let eventsB = SyncEngine(local: b, remote: remote)
        let streamB = eventsB.events()
        // Whenever each engine starts listening, nothing is missed: a save made before A listens
        // to its commits is sent by A's first send, and one sent before B listens to the remote
        // is fetched by B's first fetch.
        try await a.put(note("n1", "Buy milk"))
        let arrived = await first(streamB) { event in
            if case .fetchedZoneChanges(_, let saved, _, _, _) = event { return saved.contains { $0.recordName == "n1" } }
            return false
        }
        #expect(arrived != nil)
        #expect(try await b.record(for: RecordID(recordName: "n1", zoneID: SyncWorld.zone))["text"] == .string("Buy milk"))
        await engineA.stop()
        await eventsB.stop()
    }
}
