import TestSupport
import ArgumentParser
import Foundation
import ReliabilityHarness
import StorageKit

struct PowerLossCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-loss",
        abstract: "Cut the power at random points and check what the disk keeps.",
        discussion: """
            Runs the seeded workload in this process while a journal records every file \
            operation; after a random number of operations every later one fails (the machine \
            is off). The files are then put back to what the last fsyncs made durable — \
            unsynced writes zeroed and cut, creations and renames not followed by a directory \
            fsync undone — and the store is reopened and checked against the acknowledged steps.

            Example: reliability power-loss --cuts 500 --seed 3
            """)

    @Option(help: "Power cuts.") var cuts = 100
    @Option(help: "The workload's seed.") var seed: UInt64 = 1
    @Option(help: "Cuts on one store before a fresh one.") var cutsPerStore = 25

    func run() async throws {
        _ = QuietLogging.bootstrapped
        var random = SeededGenerator(seed: seed)
        var run: PowerLossRun?
        var acknowledged = 0
        for round in 0..<cuts {
            if round % cutsPerStore == 0 {
                if let store = run?.store { try? FileManager.default.removeItem(atPath: store) }
                run = PowerLossRun(store: freshStore("power"), seed: seed &+ UInt64(round))
            }
            guard var current = run else { break }
            let operations = Int.random(in: 0...400, using: &random)
            let outcome = PowerLossJournal.Outcome.allCases.randomElement(using: &random) ?? .cutToSyncedSize
            do {
                let cut = try await current.cut(afterOperations: operations, outcome: outcome)
                acknowledged += cut.acknowledged
                say("cut \(round + 1): \(cut)")
            } catch {
                say("cut \(round + 1) after \(operations) operations (\(outcome)): FAILED: \(error) (store kept at \(current.store))")
                throw ExitCode(1)
            }
            run = current
        }
        if let store = run?.store { try? FileManager.default.removeItem(atPath: store) }
        say("power-loss: \(cuts) cuts, \(acknowledged) acknowledged commits, 0 lost")
    }
}
