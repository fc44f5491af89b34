import ArgumentParser
import LogInspection

struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "The live records at a point: each record's latest save before it, unless deleted since.",
        discussion: """
            Without --zone every zone is replayed: with --at each zone that existed at TIME; with \
            --to-offset N, N applies to every zone (a zone whose log ends before N is shown whole).

            --json prints an array of {zone, recordName, recordType, fields, offset, \
            modificationDate, creationDate, changeTag}, by zone then record name; offset is the \
            save that wrote the version shown. Fields are written as log-inspect writes them: \
            string → "text", int64 → 42, double → 1.5 (always with a . or an exponent; \
            {"double":"nan"|"inf"|"-inf"}), bool → true, date → \
            {"date":"2024-05-01T12:00:00.250Z"}, bytes → {"bytes":"base64"}, reference → \
            {"reference":"f1","action":"deleteSelf"}, location → {"latitude":1.5,"longitude":2.5}, \
            list → [ … ].

            Examples:
              log-replay state STORE --zone Notes --to-offset 12
              log-replay state STORE --at 2024-05-01T12:00:00Z --json
              log-replay state STORE --to-offset 0          (empty: before any event)
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "Only this zone (default: every zone).") var zone: String?
    @OptionGroup var point: PointOptions
    @Flag(help: "Print JSON (see above) instead of text.") var json = false

    func run() async throws {
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: json, label: "replaying")
            let state = try store.state(zone: zone, at: point.point(), progress: bar.handler)
            bar?.finish()
            return (json ? state.json : state.text, state.plan.warnings)
        }
    }
}
