import Foundation
import ReliabilityHarness
import StorageKit
import Testing

/// Power loss: the page cache is lost at a random point — unsynced writes zeroed and cut,
/// creations and renames not followed by a directory fsync undone — and the reopened store
/// holds every acknowledged commit.
@Suite struct PowerLossTests {
    @Test(arguments: PowerLossJournal.Outcome.allCases)
    func aPowerCutLosesNoAcknowledgedCommit(_ outcome: PowerLossJournal.Outcome) async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("PowerLoss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        var run = PowerLossRun(store: store, seed: outcome == .cutToSyncedSize ? 5 : 6)
        run.stepsPerRound = 40
        var lost = 0
        for operations in [0, 1, 5, 17, 40, 90, 150, 260] {
            let cut = try await run.cut(afterOperations: operations, outcome: outcome)
            lost += cut.lostChanges
        }
        #expect(run.steps > 0, "some steps were acknowledged across the cuts")
        #expect(lost > 0, "the cuts threw unsynced changes away: the simulation did something")
    }
}

extension PowerLossTests {
    /// The first cut the long run failed on (seed 3, 45 operations into a new store).
    @Test func aCutEarlyInANewStoreLosesNoAcknowledgedCommit() async throws {
        for outcome in PowerLossJournal.Outcome.allCases {
            for operations in stride(from: 20, through: 70, by: 5) {
                let store = FileManager.default.temporaryDirectory.appendingPathComponent("PowerLoss-\(UUID().uuidString)").path
                defer { try? FileManager.default.removeItem(atPath: store) }
                var run = PowerLossRun(store: store, seed: 3)
                run.stepsPerRound = 5
                _ = try await run.cut(afterOperations: operations, outcome: outcome)
            }
        }
    }
}
