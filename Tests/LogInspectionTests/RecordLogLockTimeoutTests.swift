import Foundation
import RecordStore
import Testing
import TestSupport

/// `recordlog` takes the write lock like any writer: it waits its turn up to `--lock-timeout`
/// while an app has the store open, says so, and fails (`LogError.locked`) only once the time is up.
@Suite struct RecordLogLockTimeoutTests {
    /// Runs `body` with a fresh copy of the notes fixture store, opened for writing by `Database`.
    private func withHeldCopy(_ body: (String, Database) async throws -> Void) async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("recordlog-lock-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: InspectFixtures.notesStore, toPath: store)
        defer { try? FileManager.default.removeItem(atPath: store) }
        // No background compaction: the store's files change only by the tool.
        let database = try await Database(directory: store, compaction: .manual)
        defer { try? database.close() }
        try await body(store, database)
    }

    @Test("a command waits for the app to close the store, then does its work")
    func waitsForTheWriter() async throws {
        let binary = try #require(ChildProcess.builtExecutable("recordlog"), "build recordlog first (swift build --build-tests)")
        try await withHeldCopy { store, database in
            let process = Process()
            process.executableURL = binary
            process.arguments = ["checkpoint", store, "--lock-timeout", "900"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try ChildProcess.launch(process)
            // Its first words on stderr say that it waits: only then is the store closed. The
            // timeout is long: in a full run on two cores, blocking tests can hold the cooperative
            // pool for minutes before this task resumes to close the store.
            let said = await Self.readUntil("waiting", from: errors.fileHandleForReading)
            #expect(said.contains("is open for writing elsewhere; waiting up to 900.0 s"), "\(said)")
            try database.close()
            await ChildProcess.exit(of: process)
            let rest = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "recordlog said: \(said)\(rest)")
            #expect(FileManager.default.fileExists(atPath: store + "/snapshots/key-index.mapped"))
        }
    }

    @Test("a command fails once --lock-timeout has passed, and changes nothing", arguments: ["compact", "repair", "checkpoint"])
    func timesOut(_ command: String) async throws {
        let binary = try #require(ChildProcess.builtExecutable("recordlog"), "build recordlog first (swift build --build-tests)")
        try await withHeldCopy { store, _ in
            let before = try FileManager.default.subpathsOfDirectory(atPath: store).sorted()
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = try await ChildProcess.run(binary, [command, store, "--lock-timeout", "0.5"])
            let waited = clock.now - start
            #expect(outcome.status == 3)
            #expect(outcome.errorText.contains("recordlog: the store at \(store) is open for writing by another process"), "\(outcome.errorText)")
            #expect(waited >= .milliseconds(500), "it gave up after \(waited)")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: store).sorted() == before)
        }
    }

    /// Reads `handle` on a thread of its own until the text read contains `word` or the end. Not
    /// on a dispatch queue: in a full run, other tests' blocking waits can hold every thread of
    /// the global queues for minutes, and the child's lock timeout ran out before this read began.
    static func readUntil(_ word: String, from handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            let reader = Thread {
                var text = ""
                while !text.contains(word) {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                continuation.resume(returning: text)
            }
            reader.start()
        }
    }
}
