import Foundation
import Testing
import TestSupport

/// The built log-replay binary end to end: output, exit statuses, and what it refuses.
@Suite struct ReplayBinaryTests {
    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        guard let binary = ChildProcess.builtExecutable("log-replay") else {
            Issue.record("build log-replay first (swift build --build-tests)")
            throw CocoaError(.fileNoSuchFile)
        }
        let outcome = try await ChildProcess.run(binary, arguments)
        return (outcome.status, outcome.outputText, outcome.errorText)
    }

    @Test("state, history, diff and notes print JSON and exit 0 on the fixture store")
    func commands() async throws {
        let store = InspectFixtures.notesStore
        for arguments in [
            ["state", store, "--zone", "Notes", "--to-offset", "8", "--json"],
            ["history", store, "--zone", "Notes", "--record", "default-folder", "--json"],
            ["diff", store, "--zone", "Notes", "--from", "4", "--to", "14", "--json"],
            ["notes", store, "--at", "now", "--json"],
        ] {
            let run = try await run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.errors)")
            #expect((try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) != nil, "\(arguments) prints JSON")
        }
    }

    @Test("bad input is a message on stderr and a non-zero exit")
    func refusals() async throws {
        let store = InspectFixtures.notesStore
        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("replay-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: existing.appendingPathComponent("occupied"))
        defer { try? FileManager.default.removeItem(at: existing) }
        for arguments in [
            ["state", store, "--zone", "NoSuchZone", "--to-offset", "1"],
            ["state", store, "--zone", "Notes", "--to-offset", "999999"],
            ["state", store, "--at", "not-a-time"],
            ["history", store, "--zone", "Notes", "--record", "no-such-record"],
            ["export", store, "--zone", "Notes", "--to-offset", "4", "--out", existing.path],
            ["state", "/nonexistent/store", "--at", "now"],
        ] {
            let run = try await run(arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(!run.errors.isEmpty, "\(arguments) says why on stderr")
        }
    }

    @Test("--help teaches with examples")
    func help() async throws {
        let run = try await run(["--help"])
        #expect(run.status == 0)
        for word in ["state", "history", "diff", "export", "notes"] { #expect(run.output.contains(word)) }
    }
}
