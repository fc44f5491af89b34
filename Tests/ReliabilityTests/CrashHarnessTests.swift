import Foundation
import ReliabilityHarness
import StorageKit
import Testing
import TestSupport

/// The crash harness's short round: real child writers killed with SIGKILL, at random
/// acknowledged steps and at fault points inside the I/O layer; after each kill the store holds
/// every acknowledged commit and no half commit, and verify finds it clean after one writing
/// open. `reliability crash --kills N` runs the long form.
@Suite struct CrashHarnessTests {
    private func run(seed: UInt64, _ kills: [CrashRun.Kill]) async throws -> [CrashRun.Round] {
        let executable = try #require(ChildProcess.builtExecutable("reliability"), "the reliability tool is built with the tests")
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("CrashHarness-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        var crashRun = CrashRun(executable: executable, store: store, seed: seed)
        crashRun.stepsPerRound = 120
        var rounds: [CrashRun.Round] = []
        for kill in kills {
            rounds.append(try await crashRun.round(kill))
        }
        #expect(crashRun.steps >= rounds.map(\.acknowledged).reduce(0, +))
        return rounds
    }

    @Test func writersKilledAtRandomAcknowledgedStepsLoseNothing() async throws {
        let rounds = try await run(seed: 11, [.afterAcknowledged(5), .afterAcknowledged(17), .afterAcknowledged(1), .afterAcknowledged(30)])
        #expect(rounds.allSatisfy { $0.killed })
        #expect(rounds.map(\.acknowledged).reduce(0, +) >= 53)
    }

    @Test(arguments: [FileOperationKind.write, .sync, .rename, .create, .syncDirectory, .truncate])
    func writersKilledInsideTheIOLayerLoseNothing(_ kind: FileOperationKind) async throws {
        let rounds = try await run(seed: 23, [0, 3, 25, 60].map { .at(FaultPoint(kind: kind, skip: $0)) })
        #expect(rounds.contains { $0.killed }, "at least one fault point of \(kind) is reached")
    }
}
