import Foundation
import RecordStore
import StorageKit

/// The power-loss harness: runs the workload in this process over a store whose file operations
/// a ``PowerLossJournal`` records, cuts the power after a chosen number of operations (every
/// later one fails with EIO, as on a dead machine), puts the files back to what the last syncs
/// made durable, reopens and checks against the expected-state oracle.
package struct PowerLossRun {
    /// What one cut did.
    package struct Cut: Sendable, CustomStringConvertible {
        package var afterOperations: Int
        package var outcome: PowerLossJournal.Outcome
        package var acknowledged: Int
        /// Changes the cut threw away: unsynced writes and directory entries.
        package var lostChanges: Int
        package var inFlightSurvived: Bool

        package var description: String {
            "cut after \(afterOperations) operations (\(outcome)): \(acknowledged) acknowledged, \(lostChanges) unsynced changes lost, in flight \(inFlightSurvived ? "kept" : "gone")"
        }
    }

    package let store: String
    package let workload: Workload
    package private(set) var steps = 0
    package private(set) var model = StoreModel()
    package var stepsPerRound = 60

    package init(store: String, seed: UInt64) {
        self.store = store
        workload = Workload(seed: seed)
    }

    /// Runs steps until the power is cut after `operations` file operations (or the round's
    /// steps are done), simulates the loss, and checks the store.
    package mutating func cut(afterOperations operations: Int, outcome: PowerLossJournal.Outcome) async throws -> Cut {
        let journal = PowerLossJournal(root: store, shadowDirectory: store + ".shadow")
        let plan = FileFaultPlan(root: store, powerCutAfter: operations, journal: journal)
        FileFaults.install(plan)
        let start = steps
        var acknowledged = start
        var current = model
        do {
            let database = try await HarnessStore.open(store)
            for index in start..<(start + stepsPerRound) {
                let step = workload.step(index, after: current)
                do {
                    try await WorkloadRunner.perform(step, on: database)
                } catch {
                    break
                }
                current.apply(step)
                acknowledged = index + 1
            }
            // Closing on a dead disk fails; it releases the store's lock all the same.
            try? database.close()
        } catch {
            // The power went before the open finished: nothing was acknowledged.
        }
        plan.cutPower()
        let lost = journal.unsyncedChangeCount
        let lostChanges = journal.unsyncedChanges
        journal.simulatePowerLoss(outcome)
        FileFaults.remove(plan)
        let matched: (steps: Int, model: StoreModel)
        do {
            let actual = try await HarnessStore.recoverAndRead(store)
            matched = try HarnessStore.match(actual, workload: workload, base: model, start: start, acknowledged: acknowledged)
        } catch {
            throw HarnessError.afterPowerLoss("\(error)", lost: lostChanges)
        }
        steps = matched.steps
        model = matched.model
        return Cut(
            afterOperations: operations, outcome: outcome, acknowledged: acknowledged - start, lostChanges: lost,
            inFlightSurvived: matched.steps > acknowledged)
    }
}
