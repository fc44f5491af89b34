import Foundation
import ReliabilityHarness
import Testing
import TestSupport

/// The `notes` kill sweep's short round: the app's own writer processes killed with SIGKILL at
/// points across their lives while `notes list` readers look; every look is the state before a
/// commit or after it, nothing acknowledged or seen is lost, the next writer recovers, verify
/// is clean at the end. `reliability notes-kill --rounds N` runs the long form.
@Suite struct NotesKillSweepTests {
    @Test func notesWritersKilledAtPointsAcrossTheirLivesLeaveReadersRight() async throws {
        let notes = try #require(ChildProcess.builtExecutable("notes"), "the notes executable is built with the tests")
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("NotesKill-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        var sweep = NotesKillSweep(notes: notes, store: store, seed: 5)
        try await sweep.start()
        var rounds: [NotesKillSweep.Round] = []
        // Two unkilled rounds first: the span the kill points are swept across is measured.
        for fraction in [nil, nil, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, nil, 0.15, 0.45, 0.75] as [Double?] {
            rounds.append(try await sweep.round(killAt: fraction))
        }
        try await sweep.finish()
        #expect(rounds.contains { $0.killed }, "some writers die of the kill")
        #expect(rounds.contains { $0.committed }, "some commits are made")
    }
}
