import Foundation
import Testing
import TestSupport

@testable import RecordLog

/// The write lock must hold across processes: a store open in this process refuses a writer in
/// another one (the `recordlog-demo` executable, built with the tests), which must change nothing.
@Suite struct SecondWriterProcessTests {
    private func runDemo(store: String) throws -> ChildProcess.Outcome {
        guard let executable = ChildProcess.builtExecutable("recordlog-demo") else {
            Issue.record("recordlog-demo must be built with the tests")
            throw CocoaError(.fileNoSuchFile)
        }
        return try ChildProcess.run(executable, ["--store", store, "--events", "5"])
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

            let refused = try runDemo(store: directory)
            #expect(refused.status != 0)
            #expect(refused.errorText.contains("open for writing by another process"))
            #expect(zone.endOffset == 1)
            try log.close()
        }

        let admitted = try runDemo(store: directory)
        #expect(admitted.status == 0)
        let reader = try Log(directory: directory, options: LogOptions(readOnly: true))
        #expect(try reader.partition(named: "demo").endOffset == 6)
    }
}
