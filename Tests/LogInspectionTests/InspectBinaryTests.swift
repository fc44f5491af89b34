import Foundation
import Testing
import TestSupport

/// The built log-inspect binary, run once end to end: verify's exit statuses and dump's output.
@Suite struct InspectBinaryTests {
    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        guard let binary = ChildProcess.builtExecutable("log-inspect") else {
            Issue.record("build log-inspect first (swift build --build-tests)")
            throw CocoaError(.fileNoSuchFile)
        }
        let outcome = try await ChildProcess.run(binary, arguments)
        return (outcome.status, outcome.outputText)
    }

    @Test func endToEnd() async throws {
        #expect(try await run(["verify", InspectFixtures.notesStore]).status == 0)
        #expect(try await run(["verify", InspectFixtures.tornStore]).status == 1)
        #expect(try await run(["verify", InspectFixtures.flippedStore]).status == 2)
        #expect(try await run(["verify", "/nonexistent/store"]).status == 3)
        let dump = try await run(["dump", InspectFixtures.notesStore, "--json"])
        #expect(dump.status == 0)
        #expect(dump.output == InspectFixtures.golden("inspect-dump-notes-store.jsonl"))
    }
}
