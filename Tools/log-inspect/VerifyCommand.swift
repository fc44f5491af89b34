import ArgumentParser
import LogInspection

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check CRCs, magic, offsets, LZ4 frames, records and indexes; exit 0 only when clean.",
        discussion: """
            Each problem is printed with its file, byte position and offset. A torn tail (an \
            append cut short at the very end, which the next writer's open removes) is told apart \
            from mid-log corruption (valid data after the damage, which the writer refuses to open: \
            see Log.repair).

            Exit status: 0 clean, 1 torn tail only, 2 corrupt, 3 could not read. A progress \
            bar is drawn on standard error when it is a terminal (not with --json).

            Examples:
              log-inspect verify STORE
              log-inspect verify STORE/zones/Notes/00000000000000000000.log
              log-inspect verify STORE --json | jq '.problems[]'

            JSON: {"clean","status":"clean|tornTail|corrupt","segments":[{"zone","file","batches", \
            "records","validBytes","bytes"}],"problems":[{"kind","severity","zone","file", \
            "position","offset","message"}]}
            """)

    @Argument(help: "A store directory or a segment file.") var path: String
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        var code: Int32 = 0
        try await reportingErrors {
            // A progress bar only for a person at a terminal: a script reads the verdict.
            let bar = json ? nil : ProgressBar.onStandardError(label: "verifying", unit: "bytes")
            let report = try Verify.run(InspectTarget(path: path), progress: bar.map { bar in { bar.update(done: $0, total: $1) } })
            bar?.finish()
            print(json ? report.json().pretty() : report.text())
            code = report.exitCode
        }
        if code != 0 { throw ExitCode(code) }
    }
}
