import Foundation
import RecordClient
import RecordServer
import RecordStore
import Testing

/// SIGTERM while clients write: requests in flight finish, the process exits 0, every store is
/// closed, and every commit a client saw acknowledged is in the store.
@Suite struct GracefulShutdownTests {
    @Test("SIGTERM during writes loses no acknowledged commit (a real recordlog-server process)")
    func sigtermDuringWrites() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("RecordServerShutdown-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let token = try await DatabaseRoot(path: root).createDatabase("notes")
        let server = try await ServerProcess(root: root)
        let zone = ZoneID(zoneName: "Notes")
        let setup = HTTPRemoteDatabase(url: server.url, database: "notes", token: token)
        try await setup.save(RecordZone(zoneID: zone))

        let acknowledged = Acknowledged()
        let writers = (0..<4).map { writer in
            Task {
                let remote = HTTPRemoteDatabase(url: server.url, database: "notes", token: token, retryPolicy: .never)
                for index in 0..<100_000 {
                    let name = "w\(writer)-\(index)"
                    var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone))
                    record["text"] = .string(String(repeating: "x", count: 200))
                    do {
                        _ = try await remote.modifyRecords(
                            saving: [record], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true, clientChangeTokenData: nil)
                        await acknowledged.add(name)
                    } catch {
                        return
                    }
                }
            }
        }
        // Stop once the writers are well under way (asking, not sleeping).
        let deadline = ContinuousClock.now + .seconds(300)
        while await acknowledged.count < 200, ContinuousClock.now < deadline { await Task.yield() }
        let status = await server.stop(signal: SIGTERM)
        for writer in writers { await writer.value }
        #expect(status == 0, "exit status \(status); stderr: \(server.errors)")

        // The store was closed cleanly (its lock is free: this open would wait and fail otherwise)
        // and holds every acknowledged record.
        let store = try await Database(directory: DatabaseRoot(path: root).storeDirectory(of: "notes"), lockTimeout: .zero)
        let names = await acknowledged.names
        var missing: [String] = []
        for start in stride(from: 0, to: names.count, by: 400) {
            let chunk = Array(names[start..<min(start + 400, names.count)])
            let found = try await store.records(for: chunk.map { RecordID(recordName: $0, zoneID: zone) })
            missing += chunk.filter { (try? found[RecordID(recordName: $0, zoneID: zone)]?.get()) == nil }
        }
        #expect(missing.isEmpty, "\(missing.count) of \(names.count) acknowledged records are missing: \(missing.prefix(5))")
        #expect(names.count >= 200)
        try store.close()
    }
}

/// The names whose save a client saw acknowledged.
actor Acknowledged {
    private(set) var names: [String] = []
    var count: Int { names.count }
    func add(_ name: String) { names.append(name) }
}
