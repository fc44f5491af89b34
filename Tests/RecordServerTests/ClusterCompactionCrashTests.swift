import Foundation
import RecordClient
import RecordServer
import RecordStore
import StoreKindSupport
import Synchronization
import Testing
import TestSupport

/// The crash window of a compaction of a cluster's rows (FORMAT.md §14.5): `recordlog-server
/// compact-database` killed with SIGKILL at any point leaves the rows as they were or as its one
/// transaction left them, while nodes go on serving and writing.
@Suite(.enabled(if: TestCluster.url != nil, "set RECORDLOG_POSTGRES_URL to run them (.ci/run starts PostgreSQL)"))
struct ClusterCompactionCrashTests {
    let zone = ZoneID(zoneName: "Notes")

    /// Runs `recordlog-server compact-database` on `database`; kills it with SIGKILL after
    /// `killAfter` when given. Returns its exit status.
    static func compactDatabase(_ database: String, killAfter: Duration?) async throws -> Int32 {
        let executable = try #require(ChildProcess.builtExecutable("recordlog-server"), "the recordlog-server executable is built with the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["compact-database", "--postgres", TestCluster.url ?? "", database]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.launch(process)
        if let killAfter {
            // Where the kill lands is what each round varies; the outcome is checked whatever it is.
            try await Task.sleep(for: killAfter)
            kill(process.processIdentifier, SIGKILL)
        }
        await ChildProcess.exit(of: process)
        return process.terminationStatus
    }

    @Test("compact-database killed with SIGKILL at four points while a node writes: every acknowledged save is served once by the writing node and by a node built from the rows; then it completes")
    func compactionKilled() async throws {
        let (database, token) = try await ServerClusterTests.database()
        let (a, cacheA) = try await ServerClusterTests.node()
        defer { try? FileManager.default.removeItem(atPath: cacheA) }
        let remoteA = HTTPRemoteDatabase(url: a.url, database: database, token: token)
        try await remoteA.save(RecordZone(zoneID: zone))
        // 600 one-note commits: rows for the compaction to merge.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<75 {
                        let answer = try await ServerClusterTests.save("n\(writer)-\(index)", title: "first", at: a.url, database: database, token: token)
                        #expect(answer.status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }

        let writing = Atomic<Bool>(true)
        let writer = Task {
            var acknowledged: [String] = []
            var index = 0
            while writing.load(ordering: .acquiring) {
                let name = "during-\(index)"
                if try await ServerClusterTests.save(name, title: "while compacting", at: a.url, database: database, token: token).status == 200 {
                    acknowledged.append(name)
                }
                index += 1
            }
            return acknowledged
        }
        for delay in [0, 40, 120, 300] {
            let status = try await Self.compactDatabase(database, killAfter: .milliseconds(delay))
            #expect(status == SIGKILL || status == 0, "killed, or done before the kill")
            // After each kill, a node built from the rows alone serves what the writing node serves.
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("node-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: cache) }
            let fresh = try await ServerProcess(postgres: TestCluster.url ?? "", cache: cache)
            let served = try await ServerClusterTests.allNames(HTTPRemoteDatabase(url: fresh.url, database: database, token: token), zone)
            #expect(served.count == Set(served).count)
            #expect(await fresh.stop() == 0)
            let written = try await ServerClusterTests.allNames(remoteA, zone)
            #expect(Set(served).isSubset(of: Set(written)) && served.count >= 600)
        }
        #expect(try await Self.compactDatabase(database, killAfter: nil) == 0)
        writing.store(false, ordering: .releasing)
        let acknowledged = try await writer.value

        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("node-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let fresh = try await ServerProcess(postgres: TestCluster.url ?? "", cache: cache)
        let served = try await ServerClusterTests.allNames(HTTPRemoteDatabase(url: fresh.url, database: database, token: token), zone)
        let written = try await ServerClusterTests.allNames(remoteA, zone)
        #expect(served.sorted() == written.sorted())
        #expect(served.count == Set(served).count)
        #expect(Set(acknowledged).isSubset(of: Set(served)))
        #expect(served.count == 600 + acknowledged.count)
        #expect(await fresh.stop() == 0)
        #expect(await a.stop() == 0)
    }
}
