import ArgumentParser
import Foundation
import ReliabilityHarness

struct NotesKillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes-kill",
        abstract: "Kill notes writer processes with SIGKILL while notes readers run, and check every look.",
        discussion: """
            Each round starts one `notes` writer (add, edit, delete, add-folder, delete-folder) \
            and a `notes list --json` reader beside it; the writer is killed with SIGKILL at a \
            point swept across its life (every --killed-every-th round it runs to the end). Each \
            reader, and one after the writer, must see the notes before the commit or after it, \
            never part of it; a commit a reader saw or a writer acknowledged must stay. The next \
            writer recovers the store; at the end verify must find it clean. The notes \
            executable is looked for next to this one.

            Example: reliability notes-kill --rounds 300 --seed 3
            """)

    @Option(help: "Rounds: each runs one writer.") var rounds = 100
    @Option(help: "The commands' seed.") var seed: UInt64 = 1
    @Option(help: "Kill points across a writer's life (the sweep's resolution).") var points = 20
    @Option(help: "One round in this many is left to finish.") var unkilledEvery = 4

    func run() async throws {
        _ = QuietLogging.bootstrapped
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let notes = here.appendingPathComponent("notes")
        guard FileManager.default.isExecutableFile(atPath: notes.path) else {
            throw ValidationError("no notes executable next to this one (\(notes.path)): swift build --product notes")
        }
        let store = freshStore("notes-kill")
        var sweep = NotesKillSweep(notes: notes, store: store, seed: seed)
        var totals = (killed: 0, committed: 0)
        do {
            try await sweep.start()
            for round in 0..<rounds {
                let fraction = round % unkilledEvery == 0 ? nil : Double((round * 7) % points) / Double(points)
                let result = try await sweep.round(killAt: fraction)
                totals.killed += result.killed ? 1 : 0
                totals.committed += result.committed ? 1 : 0
                say("round \(round + 1): \(result)")
            }
            try await sweep.finish()
        } catch {
            say("FAILED: \(error) (store kept at \(store))")
            throw ExitCode(1)
        }
        try? FileManager.default.removeItem(atPath: store)
        say("notes-kill: \(rounds) rounds, \(totals.killed) writers killed, \(totals.committed) commits, every look whole and durable, verify clean")
    }
}
