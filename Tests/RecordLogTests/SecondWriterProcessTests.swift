import Foundation
import Testing
import TestSupport

@testable import RecordLog

/// The write lock must hold across processes: a store open in this process refuses a writer in
/// another one (the `recordlog-demo` executable, built with the tests), which must change nothing.
@Suite struct SecondWriterProcessTests {
    private func demo() throws -> URL {
        guard let executable = ChildProcess.builtExecutable("recordlog-demo") else {
            Issue.record("recordlog-demo must be built with the tests")
            throw CocoaError(.fileNoSuchFile)
        }
        return executable
    }

    private func runDemo(store: String, lockTimeout: String = "0") async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(demo(), ["--store", store, "--events", "5", "--lock-timeout", lockTimeout])
    }

    private func temporaryStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-lock-\(UUID().uuidString)").path
    }

    @Test("a second writer process is refused while the store is open, and admitted after close")
    func secondProcessRefused() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("recordlog-lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        do {
            let log = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
            let zone = try log.createPartition(named: "demo")
            var batch = RecordBatchBuilder()
            batch.append(key: "a", value: [1])
            _ = try await zone.append(batch)

            let refused = try await runDemo(store: directory)
            #expect(refused.status != 0)
            #expect(refused.errorText.contains("open for writing by another process"))
            #expect(zone.endOffset == 1)
            try log.close()
        }

        let admitted = try await runDemo(store: directory)
        #expect(admitted.status == 0)
        let reader = try Log(directory: directory, options: LogOptions(readOnly: true))
        #expect(try reader.partition(named: "demo").endOffset == 6)
    }

    @Test("a writer process waits for the lock and commits once the holder closes")
    func waitingWriterGetsItsTurn() async throws {
        let directory = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
        _ = try log.createPartition(named: "demo")
        // Started while the lock is held: it waits (up to a minute), whenever it first tries.
        let waiting = try ChildProcess.start(demo(), ["--store", directory, "--events", "5", "--lock-timeout", "60"])
        try log.close()
        await ChildProcess.exit(of: waiting)
        #expect(waiting.terminationStatus == 0)
        let reader = try Log(directory: directory, options: LogOptions(readOnly: true))
        #expect(try reader.partition(named: "demo").endOffset == 5)
    }

    @Test("a writer process whose lock timeout passes fails with the locked error and writes nothing")
    func lockTimeoutExpires() async throws {
        let directory = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
        let zone = try log.createPartition(named: "demo")
        let refused = try await ChildProcess.run(demo(), ["--store", directory, "--events", "5", "--lock-timeout", "0.2"])
        #expect(refused.status != 0)
        #expect(refused.errorText.contains("open for writing by another process"))
        #expect(zone.endOffset == 0)
        try log.close()
    }

    @Test("Log.open in this process waits for the lock and throws locked when its timeout passes")
    func openTimesOutInProcess() async throws {
        let directory = temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
        await #expect(throws: LogError.locked(path: directory)) {
            _ = try await Log.open(directory: directory, lockTimeout: .milliseconds(30))
        }
        try log.close()
        let next = try await Log.open(directory: directory, lockTimeout: .milliseconds(30))
        try next.close()
    }
}
