import ArgumentParser
import LogInspection

struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Per zone: offsets, segments, records by type and event, bytes, first/last time.",
        discussion: """
            Examples:
              log-inspect summary STORE
              log-inspect summary STORE/zones/Notes/00000000000000000000.log
              log-inspect summary STORE --json | jq '.zones[] | {name, endOffset}'

            JSON: {"zones":[{"name","startOffset","endOffset","firstTimestamp","lastTimestamp", \
            "batches","records","bytes","compressedBytes","rawBytes","recordsByType", \
            "recordsByEvent","segments":[{"file","baseOffset","bytes","batches","records","damaged"}]}]}
            """)

    @Argument(help: "A store directory or a segment file.") var path: String
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        try await reportingErrors {
            let summary = try Summary(InspectTarget(path: path))
            print(json ? summary.json().pretty() : summary.text())
        }
    }
}
