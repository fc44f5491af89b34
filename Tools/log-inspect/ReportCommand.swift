import ArgumentParser
import Foundation
import LogInspection

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML page about a store: verdict, timelines, sizes, segments, keys.",
        discussion: """
            The page opens offline (inline CSS and SVG, no script, nothing fetched): verify's \
            verdict at the top (clean, torn tail, or corruption with its file, position and \
            offset, in red), then per zone a timeline of commits and records (saves, deletes and \
            zone events in their own colours), commit sizes, bytes raw against stored, the \
            segments with their sizes and base offsets, records by event and by type, the most \
            rewritten keys, the largest records, and events or headers other than the store's own \
            (subscriptions, indexes, sync). Charts are binned, so the page stays small for any \
            log. A progress bar is drawn on standard error when it is a terminal.

            Examples:
              log-inspect report ~/.local/share/recordlog-notes --out /tmp/notes.html
              log-inspect report STORE/zones/Notes/00000000000000000000.log --out segment.html

            Exit status: 0 written; 3 the store could not be read or the file written.
            """)

    @Argument(help: "A store directory or a segment file.") var path: String
    @Option(help: ArgumentHelp("The HTML file to write (replaced if it exists).", valueName: "FILE")) var out: String

    func run() async throws {
        try await reportingErrors {
            let bar = ProgressBar.onStandardError(label: "reading", unit: "bytes")
            let report = try StoreReport(
                InspectTarget(path: path), progress: bar.map { bar in { bar.update(done: $0, total: $1) } },
                verifyProgress: bar.map { bar in { bar.update(done: $0, total: $1, label: "verifying") } })
            bar?.finish()
            let html = ReportPage(report).html()
            do {
                try html.write(toFile: out, atomically: true, encoding: .utf8)
            } catch {
                throw InspectError.unwritable(out)
            }
            print("\(out): \(report.verdict.status.rawValue), \(report.zones.count) zones, \(html.utf8.count) bytes")
        }
    }
}
