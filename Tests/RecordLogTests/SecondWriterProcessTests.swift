import Foundation
import Testing

@testable import RecordLog

/// The write lock must hold across processes: a store open in this process refuses a writer in
/// another one (the `recordlog-demo` executable, built with the tests), which must change nothing.
@Suite struct SecondWriterProcessTests {
    /// The demo executable beside the test bundle in the build products directory.
    static var demoExecutable: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("recordlog-demo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    private func runDemo(_ executable: URL, store: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--store", store, "--events", "5"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("a second writer process is refused while the store is open, and admitted after close")
    func secondProcessRefused() async throws {
        let executable = try #require(Self.demoExecutable, "recordlog-demo must be built with the tests")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("recordlog-lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        do {
            let log = try Log(directory: directory, options: LogOptions(durability: .noSyncUnsafe))
            let zone = try log.createPartition(for: "demo")
            var batch = RecordBatchBuilder()
            batch.append(key: "a", value: [1])
            _ = try await zone.append(batch)

            let refused = try runDemo(executable, store: directory)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("open for writing by another process"))
            #expect(zone.endOffset == 1)
            try log.close()
        }

        let admitted = try runDemo(executable, store: directory)
        #expect(admitted.status == 0)
        let reader = try Log(directory: directory, options: LogOptions(readOnly: true))
        #expect(try reader.partition(for: "demo").endOffset == 6)
    }
}
