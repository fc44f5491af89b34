import ArgumentParser
import LogInspection

struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "The records added, changed (field by field) and deleted in a zone between two offsets.",
        discussion: """
            Compares the state at --from N with the state at --to M (both exclusive points: the \
            events with offset < N, and < M). States, not events: a record saved again with the \
            same fields is unchanged, one created and deleted in between does not appear, and one \
            whose record type differs counts as deleted and added. See every event with `history`.

            --json prints {zone, from, to, added, changed, deleted}: added (as at M) and deleted \
            (as at N) as in `state --json`; changed as {recordName, recordType, offsetBefore, \
            offset, fields: [{key, before, after}]}, before/after null for a field added/removed.

            Example:
              log-replay diff STORE --zone Notes --from 10 --to 20
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "The zone.") var zone: String
    @Option(help: ArgumentHelp("The earlier point: the events with offset < N.", valueName: "N")) var from: Int64
    @Option(help: ArgumentHelp("The later point: the events with offset < M.", valueName: "M")) var to: Int64
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: json, label: "replaying")
            let diff = try store.diff(zone: zone, from: from, to: to, progress: bar.handler)
            bar?.finish()
            return (json ? diff.json : diff.text, diff.warnings)
        }
    }
}
