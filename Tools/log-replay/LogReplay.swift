import ArgumentParser
import LogInspection

/// log-replay: a RecordLog store as it was at any point of its log. Read-only on the store.
@main
struct LogReplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-replay",
        abstract: "Show a RecordLog store as it was at any point of its log; export that point as a new store.",
        discussion: """
            Every change to a store is an event appended to its zone's log, at the zone's next \
            offset. Replaying the log up to a point rebuilds the store as it was then. The store \
            is opened read-only: no lock, nothing written, so the app may keep running.

            A POINT is one of:
              --to-offset N   the events with offset < N (exclusive, like mysqlbinlog \
            --stop-position). A zone's end offset, the next offset to be written, is its whole \
            log; 0 is before its first event.
              --at TIME       the events stamped at or before TIME (inclusive): \
            \(TimeArgument.forms).

            Find offsets and times with `log-inspect dump STORE --zone Notes`.

            Examples:
              log-replay state ~/notes-store --zone Notes --to-offset 12
              log-replay state ~/notes-store --at 2024-05-01T12:00:00Z --json
              log-replay history ~/notes-store --zone Notes --record 5F0C…
              log-replay diff ~/notes-store --zone Notes --from 10 --to 20
              log-replay notes ~/notes-store --at 1714564800000
              log-replay export ~/notes-store --zone Notes --to-offset 12 --out /tmp/repro
              log-replay bisect ~/notes-store --zone Notes --invariant 'jq -e "length < 50" >/dev/null'
              notes --store /tmp/repro list

            Exit status: 0 on success, 1 when the store, zone, record, offset, time or output \
            path is refused (the message says why), 64 for a usage error (a TIME in none of the \
            forms above among them). Warnings (a point \
            inside a commit, a zone deleted since) go to standard error.
            """,
        subcommands: [StateCommand.self, HistoryCommand.self, DiffCommand.self, NotesCommand.self, ExportCommand.self, BisectCommand.self])
}
