import Foundation
import LogInspection
import Testing
import TestSupport

/// The real tools draw progress on standard error only when it is a terminal: run under a
/// pseudo-terminal, `log-inspect report` shows its reading then its verifying, `log-inspect
/// verify` and `log-replay state` theirs, each erased at the end; with standard error a file,
/// nothing of it appears. (`RECORDLOG_PROGRESS_INTERVAL_MS=0` draws on every update, so that
/// what is seen does not depend on how long the work takes.)
@Suite struct TerminalProgressTests {
    static let everyUpdate = [ProgressBar.intervalVariable: "0"]

    static func tool(_ name: String) throws -> URL {
        try #require(ChildProcess.builtExecutable(name), "build \(name) first (swift build --build-tests)")
    }

    /// The tool's run with standard error on a pseudo-terminal, and with it a file.
    static func both(_ name: String, _ arguments: [String]) async throws -> (terminal: PseudoTerminal.Outcome, file: ChildProcess.Outcome) {
        let executable = try tool(name)
        let terminal = try await PseudoTerminal.run(executable, arguments, environment: everyUpdate)
        let file = try await ChildProcess.run(executable, arguments, environment: everyUpdate)
        return (terminal, file)
    }

    @Test("log-inspect report draws 'reading' then 'verifying' on a terminal, and erases them; nothing when standard error is a file")
    func reportProgress() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("report-progress-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (terminal, file) = try await Self.both("log-inspect", ["report", InspectFixtures.notesStore, "--out", out])
        #expect(terminal.status == 0 && file.status == 0)
        let text = terminal.terminalText
        let reading = try #require(text.range(of: "\rreading ["), "no reading progress in \(text.debugDescription)")
        let verifying = try #require(text.range(of: "\rverifying ["), "no verify progress in \(text.debugDescription)")
        #expect(reading.lowerBound < verifying.lowerBound)
        #expect(text.contains("100%") && text.contains("bytes") && text.hasSuffix("\r\u{1B}[K"))
        #expect(file.errorText.isEmpty, "standard error, a file: \(file.errorText.debugDescription)")
        #expect(terminal.output == file.output)
    }

    @Test("log-inspect verify and log-replay state draw their progress on a terminal only, and never with --json")
    func verifyAndReplayProgress() async throws {
        let verify = try await Self.both("log-inspect", ["verify", InspectFixtures.notesStore])
        #expect(verify.terminal.terminalText.contains("\rverifying [") && verify.file.errorText.isEmpty)
        let state = try await Self.both("log-replay", ["state", InspectFixtures.notesStore, "--zone", "Notes", "--at", "now"])
        #expect(state.terminal.terminalText.contains("\rreplaying [") && state.file.errorText.isEmpty)
        let json = try await PseudoTerminal.run(try Self.tool("log-inspect"), ["verify", InspectFixtures.notesStore, "--json"], environment: Self.everyUpdate)
        #expect(json.status == 0 && json.terminal.isEmpty)
    }
}
