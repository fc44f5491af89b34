import ArgumentParser
import Foundation
import LogInspection

struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Print records as they are appended to a live store, until interrupted (Ctrl-C).",
        discussion: """
            Starts at each zone's current end (or its start with --from-beginning); zones created \
            later are followed too. Lines are those of dump (--json: the same JSON Lines). The \
            store is reopened read-only whenever a segment file grows: no lock, nothing written.

            Examples:
              log-inspect follow STORE
              log-inspect follow STORE --zone Notes --json | jq -c '{offset, event, fields}'
            """)

    @Argument(help: "A store directory.") var path: String
    @Option(help: "Only this zone.") var zone: String?
    @Flag(help: "Print JSON Lines.") var json = false
    @Flag(help: "Print the records already there first.") var fromBeginning = false
    @Option(help: "Milliseconds between looks at the store.") var interval: Int = 200

    func run() async throws {
        try await reportingErrors {
            guard try InspectTarget(path: path).isStore else { throw InspectError.followNeedsStore(path) }
            let follower = try LogFollower(
                store: path, zone: zone, fromBeginning: fromBeginning, pollInterval: .milliseconds(max(1, interval)))
            for try await record in follower {
                FileHandle.standardOutput.write(Data(((json ? record.json().compact() : record.text()) + "\n").utf8))
            }
        }
    }
}
