import TestSupport
import ArgumentParser
import Foundation
import ReliabilityHarness
import StorageKit

struct CrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill child writers with SIGKILL and check every acknowledged commit survives.",
        discussion: """
            Each round starts a child (`reliability child`) that commits the seeded workload on \
            the store and prints each acknowledged step; the parent kills it after a random \
            number of acknowledgements, or the child kills itself at a random fault point \
            inside the I/O layer (before a write, an fsync, a rename, a directory sync…). The \
            parent then reopens the store and checks it holds exactly the acknowledged steps, or \
            those and the one in flight, and that verify finds it clean. A new store is started \
            every --kills-per-store rounds.

            Example: reliability crash --kills 1000 --seed 7
            """)

    @Option(help: "Rounds: each kills one child.") var kills = 100
    @Option(help: "The workload's seed (and the kill points').") var seed: UInt64 = 1
    @Option(help: "Rounds on one store before a fresh one.") var killsPerStore = 25

    func run() async throws {
        _ = QuietLogging.bootstrapped
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var random = SeededGenerator(seed: seed)
        var totals = (acknowledged: 0, inFlightKept: 0, killed: 0)
        var run: CrashRun?
        for round in 0..<kills {
            if round % killsPerStore == 0 {
                if let store = run?.store { try? FileManager.default.removeItem(atPath: store) }
                run = CrashRun(executable: executable, store: freshStore("crash"), seed: seed &+ UInt64(round))
            }
            guard var current = run else { break }
            let kill: CrashRun.Kill
            if Bool.random(using: &random) {
                kill = .afterAcknowledged(Int.random(in: 1...40, using: &random))
            } else {
                // Writes and syncs come with every commit; the others with rolls and checkpoints.
                let kind = FileOperationKind.allCases.randomElement(using: &random) ?? .sync
                let frequent = kind == .write || kind == .sync
                kill = .at(FaultPoint(kind: kind, skip: Int.random(in: 0...(frequent ? 150 : 12), using: &random)))
            }
            do {
                let result = try await current.round(kill)
                totals.acknowledged += result.acknowledged
                totals.inFlightKept += result.inFlightSurvived ? 1 : 0
                totals.killed += result.killed ? 1 : 0
                say("round \(round + 1): \(result)")
            } catch {
                say("round \(round + 1): \(kill): FAILED: \(error) (store kept at \(current.store))")
                throw ExitCode(1)
            }
            run = current
        }
        if let store = run?.store { try? FileManager.default.removeItem(atPath: store) }
        say("crash: \(kills) rounds, \(totals.killed) kills, \(totals.acknowledged) acknowledged commits, 0 lost, \(totals.inFlightKept) in-flight commits found durable")
    }
}

struct ChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "child",
        abstract: "The crash harness's writer (started by `crash` and by the tests).",
        shouldDisplay: false)

    @Option var store: String
    @Option var seed: UInt64
    @Option var start: Int
    @Option var steps: Int
    @Option(help: "KIND:SKIP — kill this process at the SKIP-th next operation of KIND.") var crashAt: String?

    func run() async throws {
        var point: FaultPoint?
        if let crashAt {
            guard let parsed = FaultPoint(crashAt) else { throw ValidationError("--crash-at takes KIND:SKIP, KIND one of \(FileOperationKind.allCases.map(\.rawValue))") }
            point = parsed
        }
        try await ChildWriter.run(store: store, seed: seed, start: start, steps: steps, crashAt: point)
    }
}
