import ArgumentParser
import Foundation
import LogInspection

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct BisectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first offset whose event breaks an invariant, in O(log n) replays.",
        discussion: """
            The invariant is a shell command (run with /bin/sh -c) that reads a zone's state on \
            standard input — exactly what `log-replay state STORE --zone Z --to-offset N --json` \
            prints — and exits 0 when the state is good. bisect checks that the state at --from \
            (default the zone's first offset) is good and the state at --to (default its end \
            offset) is bad, then halves the range until it finds the offset N whose state before \
            it (--to-offset N) is good and including it (--to-offset N+1) is bad. It prints that \
            event as `log-inspect dump` shows it and the diff it made (as `log-replay diff`). \
            The invariant's own output goes to standard error.

            --json prints {"firstBadOffset": N, "event": {…dump --json line…}, "diff": {…diff \
            --json…}, "replays": K}.

            Examples:
              log-replay bisect STORE --zone Notes --invariant 'jq -e "length <= 100" >/dev/null'
              log-replay bisect STORE --zone Notes --from 1000 --to 2000 --json \\
                --invariant 'jq -e "all(.[]; .fields.title != \\"\\")" >/dev/null'

            Exit status: 0 found; 1 the ends do not bracket a change (the state at --from is \
            already bad, or the state at --to still good), or the store, zone or offsets are \
            refused; 64 usage error.
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "The zone.") var zone: String
    @Option(help: ArgumentHelp("The shell command judging a state read on standard input: exit 0 = good.", valueName: "CMD"))
    var invariant: String
    @Option(help: ArgumentHelp("A point known good (offset, exclusive); default the zone's first offset.", valueName: "N"))
    var from: Int64?
    @Option(help: ArgumentHelp("A point known bad (offset, exclusive); default the zone's end offset.", valueName: "M"))
    var to: Int64?
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        if invariant.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--invariant needs a command.") }
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to); give the earlier point first.") }
    }

    func run() async throws {
        var bracketed = true
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: json, label: "bisecting")
            let check = ShellInvariant(command: invariant, output: FileHandle.standardError)
            let outcome = try await store.bisect(
                zone: zone, from: from, to: to,
                progress: bar.map { bar in
                    { replay, most, done, total in bar.update(done: done, total: total, label: "replay \(replay) of ≤\(most)") }
                },
                invariant: { state throws(ReplayError) in try await check.holds(for: state.json + "\n") })
            bar?.finish()
            switch outcome {
            case .found(let result):
                return (json ? result.json : result.text, [])
            case .notBracketed(let reason, let replays):
                bracketed = false
                Runner.standardError("log-replay: not bracketed after \(replays) replays: \(reason)\n")
                return ("", [])
            }
        }
        if !bracketed { throw ExitCode(1) }
    }
}
