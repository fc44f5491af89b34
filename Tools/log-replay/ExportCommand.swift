import ArgumentParser
import LogInspection

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a new store holding the log up to a point, to reproduce a bug.",
        discussion: """
            The new store holds the same events at the same offsets, with their timestamps, \
            headers and commit boundaries; the library and the notes app open it as they open \
            any store (they rebuild indexes and views on open). The original is not touched.

            --zone Z --to-offset N: zone Z up to offset N (exclusive); the other zones and the \
            system partition (zones, subscriptions, indexes) are copied whole.
            --at TIME: every zone and the system partition up to TIME (inclusive); zones created \
            after TIME are left out.

            --out must not exist, or be an empty directory.

            Examples:
              log-replay export STORE --zone Notes --to-offset 12 --out /tmp/repro
              log-replay export STORE --at 2024-05-01T12:00:00Z --out /tmp/repro
              notes --store /tmp/repro list
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "The zone --to-offset counts in (required with --to-offset).") var zone: String?
    @OptionGroup var point: PointOptions
    @Option(help: ArgumentHelp("The new store's directory; must not exist or be empty.", valueName: "DIR")) var out: String

    func validate() throws {
        if point.toOffset != nil, zone == nil { throw ValidationError("--to-offset needs --zone: offsets are per zone.") }
        if point.at != nil, zone != nil { throw ValidationError("--zone goes with --to-offset; --at cuts every zone.") }
    }

    func run() async throws {
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: false, label: "copying")
            let summary = try await store.export(at: try point.storePoint(zone: zone), to: out, progress: bar.handler)
            bar?.finish()
            return (summary.text, summary.warnings)
        }
    }
}
