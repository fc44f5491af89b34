import ArgumentParser
import LogInspection
import NotesReplay

struct NotesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "The Notes app's folders and notes as the app showed them at a point.",
        discussion: """
            Folds the Notes zone's events into the app's own Folders and Notes views: folders by \
            name, each with its notes oldest first. --to-offset N counts in the Notes zone.

            --json prints an array of folders {id, name, createdAt, modifiedAt, notes}, each note \
            {id, folderID, title, content, createdAt, modifiedAt}; dates ISO 8601 with ms.

            Examples:
              log-replay notes STORE --to-offset 12
              log-replay notes STORE --at 2024-05-01T12:00:00Z --json
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "The zone of the notes; only Notes is accepted.") var zone = "Notes"
    @OptionGroup var point: PointOptions
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: json, label: "replaying")
            let notes = try store.notes(at: try point.storePoint(zone: zone), progress: bar.handler)
            bar?.finish()
            return (json ? notes.json : notes.text, notes.plan.warnings)
        }
    }
}
