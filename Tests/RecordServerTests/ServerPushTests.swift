import Foundation
import NIOHTTP1
import RecordClient
import RecordStore
import Testing

/// Push: notifications come after each durable commit; a stream that drops ends, and a client
/// that reconnects and fetches from its token misses nothing.
@Suite struct ServerPushTests {
    let zone = ZoneID(zoneName: "Notes")

    func save(_ remote: HTTPRemoteDatabase, _ name: String) async throws {
        let record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
        _ = try await remote.modifyRecords(saving: [record], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
    }

    @Test(
        "a stream that drops (the server stops) ends; after reconnecting, fetching from the last token returns every change made meanwhile",
        arguments: ServerStorage.allCases)
    func dropAndReconnect(storage: ServerStorage) async throws {
        let first = try await TestServer.start(storage)
        let writer = first.remote()
        try await writer.save(RecordZone(zoneID: zone))
        _ = try await writer.save(Subscription(id: "notes", kind: .zone(zone)))
        let device = first.remote()
        var token = try await device.fetchZoneChanges(inZonesWith: [zone], configurations: [:])[zone]?.get().changeToken
        var seen: Set<String> = []

        let stream = try await device.notifications(for: "notes")
        try await save(writer, "a")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.zoneIDs == [zone])
        let page = try await device.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: token)])
        seen.formUnion(try page[zone]?.get().changedRecords.map(\.recordID.recordName) ?? [])
        token = try page[zone]?.get().changeToken

        // The connection drops: the server goes away. The stream ends.
        try await first.stop()
        #expect(await iterator.next() == nil)

        // Meanwhile other devices write (here, straight into the database, as no server runs).
        try await first.withDatabase { store in
            for name in ["b", "c"] {
                _ = try await store.save(Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone)))
            }
        }

        // The server is back (another port); the device reconnects, then fetches from its token.
        let second = try await first.restarted()
        let again = second.remote()
        let resumed = try await again.notifications(for: "notes")
        var more = true
        while more {
            let page = try await again.fetchZoneChanges(inZonesWith: [zone], configurations: [zone: .init(previousServerChangeToken: token)])
            let changes = try #require(try page[zone]?.get())
            seen.formUnion(changes.changedRecords.map(\.recordID.recordName))
            token = changes.changeToken
            more = changes.moreComing
        }
        #expect(seen == ["a", "b", "c"])
        // And the new stream delivers what follows.
        try await save(second.remote(), "d")
        var resumedIterator = resumed.makeAsyncIterator()
        #expect(await resumedIterator.next()?.zoneIDs == [zone])
        try await second.stopAndRemove()
    }

    /// The server's active-streams gauge.
    func activeStreams(_ server: TestServer) async throws -> Double? {
        let metrics = try await server.raw(.GET, "/metrics").body
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("recordlog_notification_streams_active ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test(
        "a client that goes closes its stream on the server (the active-streams gauge returns to zero)",
        arguments: ServerStorage.allCases)
    func clientGoes(storage: ServerStorage) async throws {
        let server = try await TestServer.start(storage)
        let remote = server.remote()
        try await remote.save(RecordZone(zoneID: zone))
        _ = try await remote.save(Subscription(id: "all", kind: .database))
        var stream: AsyncStream<SubscriptionNotification>? = try await remote.notifications(for: "all")
        #expect(try await activeStreams(server) == 1)
        stream = nil
        #expect(stream == nil)
        // Ask until the server noticed (the connection closes asynchronously).
        var closed = false
        for _ in 0..<10_000 where !closed {
            closed = try await activeStreams(server) == 0
        }
        #expect(closed)
        try await server.stopAndRemove()
    }
}
