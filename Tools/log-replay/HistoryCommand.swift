import ArgumentParser
import LogInspection

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Every save and delete of one record, oldest first.",
        discussion: """
            --json prints an array of {offset, timestamp, event, recordType, changeTag, fields, \
            modificationDate}: timestamp in ms since the epoch, event "save" or "delete", fields \
            null for a delete (field JSON as in `state --help`).

            Example:
              log-replay history STORE --zone Notes --record default-folder
            """)

    @Argument(help: "The store directory.") var store: String
    @Option(help: "The record's zone.") var zone: String
    @Option(name: .customLong("record"), help: "The record name.") var recordName: String
    @Flag(help: "Print JSON instead of text.") var json = false

    func run() async throws {
        try await Runner.run(store: store) { store in
            let bar = Runner.progressBar(json: json, label: "reading")
            let events = try store.history(zone: zone, recordName: recordName, progress: bar.handler)
            bar?.finish()
            return (json ? HistoryOutput.json(events) : HistoryOutput.text(events), [])
        }
    }
}
