import ArgumentParser
import Foundation
import LogInspection

/// log-inspect: look inside a RecordLog store, or any Kafka v2 segment file, without changing it.
@main
struct LogInspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-inspect",
        abstract: "Look inside a RecordLog store or a Kafka v2 segment file, read-only.",
        discussion: """
            PATH is a store directory (the one holding recordlog.meta) or one segment file \
            (zones/<zone>/00000000000000000000.log, or a .log file written by Kafka or any Kafka \
            client). Nothing is locked or written: it is safe on a store the app has open.

            Offsets are dense per zone from 0; a zone's end offset is the next one to be written. \
            --to N means offsets < N. --since/--until include their ends; a TIME is \
            \(TimeArgument.forms).

            Examples:
              log-inspect summary ~/.local/share/recordlog-notes
              log-inspect dump STORE --zone Notes --from 10 --to 20
              log-inspect dump STORE --key 5E0C7D1A-… --json | jq .fields
              log-inspect dump STORE --batches
              log-inspect verify STORE || echo "damaged"
              log-inspect follow STORE --zone Notes --json
              log-inspect report STORE --out /tmp/store.html

            Exit status: 0 success; verify: 1 torn tail only, 2 corruption; 3 the command failed \
            (no such path, unreadable file); 64 bad arguments.
            """,
        subcommands: [SummaryCommand.self, DumpCommand.self, VerifyCommand.self, FollowCommand.self, ReportCommand.self])
}

/// Turns an error into a message on stderr and exit status 3.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("log-inspect: \(error)\n".utf8))
        throw ExitCode(3)
    }
}
