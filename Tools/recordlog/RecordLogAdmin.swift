import ArgumentParser
import Foundation
import LogInspection
import Logging

/// recordlog: administer a RecordLog store — compact it, repair it, checkpoint it.
@main
struct RecordLogAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordlog",
        abstract: "Administer a RecordLog store: compact, repair, checkpoint.",
        discussion: """
            STORE is a store directory (the one holding recordlog.meta). Every command opens it as \
            its writer, and waits its turn like any writer: when an app has the store open, it \
            says so and waits up to --lock-timeout seconds (5 by default) for the app to close \
            it, then fails and changes nothing. Stop the app, or let it finish.

            compact   keeps each record's latest version and removes the ones it replaced; deletes \
                      older than --retain are dropped, and change tokens older than the newest \
                      dropped delete then get changeTokenExpired (FORMAT.md §11.1, §13).
            repair    after `log-inspect verify` reported corruption (exit 2): cuts each damaged \
                      zone at its first bad batch and moves every removed byte to STORE/lost+found/.
            checkpoint writes the key index's snapshot now, so the next open replays nothing.

            Examples:
              recordlog compact ~/.local/share/recordlog-notes
              recordlog compact STORE --zone Notes --retain 0 --json | jq '.zones[].bytesAfter'
              log-inspect verify STORE || recordlog repair STORE
              recordlog checkpoint STORE

            Exit status: 0 success; 3 the command failed (still locked after --lock-timeout, no \
            such store, damage compact cannot read past: run repair); 64 bad arguments.
            """,
        subcommands: [CompactCommand.self, RepairCommand.self, CheckpointCommand.self])
}

/// Options every command takes.
struct StoreOptions: ParsableArguments {
    @Argument(help: "The store directory.") var store: String
    @Flag(help: "Print one JSON object instead of lines for people.") var json = false
    @Option(help: "Wait this many seconds for another writer to close the store (default: 5, as an app's Database).")
    var lockTimeout: Double = 5

    func validate() throws {
        if !(lockTimeout >= 0 && lockTimeout <= 86_400) { throw ValidationError("--lock-timeout must be 0 to 86400 seconds") }
    }

    /// `--lock-timeout`; says on stderr that the command waits, when another writer has the store open.
    var lockWait: Duration {
        if StoreAdministration.writerIsLive(store: store) == true {
            FileHandle.standardError.write(
                Data("recordlog: \(store) is open for writing elsewhere; waiting up to \(lockTimeout) s for it to close\n".utf8))
        }
        return .milliseconds(Int64(lockTimeout * 1000))
    }

    /// Warnings and errors only, on stderr: the report is the output.
    var logger: Logger {
        var logger = Logger(label: "recordlog")
        logger.logLevel = .warning
        return logger
    }

    func print(_ result: StoreAdministration.Result) {
        Swift.print(json ? result.json.pretty() : result.text())
    }
}

/// Turns an error into a message on stderr and exit status 3.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("recordlog: \(error)\n".utf8))
        throw ExitCode(3)
    }
}

struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Keep each record's latest version; drop deletes older than --retain.",
        discussion: """
            Every zone is compacted (or only --zone), everything written so far included. Offsets \
            never change; segments emptied at the start of a zone go. Safe to interrupt: the next \
            open finishes or rolls back a half-done swap.

            JSON: {"zones":[{"zone","bytesBefore","bytesAfter","recordsRead","recordsRemoved", \
            "tombstonesDropped","segmentsBefore","segmentsAfter","logStartOffset","expiryOffset"}]}
            """)

    @OptionGroup var options: StoreOptions
    @Option(help: "Compact only this zone.") var zone: String?
    @Option(help: "Keep deletes this many seconds (default: 86400, a day; 0 drops them all).") var retain: Int64?

    func validate() throws {
        if let retain, retain < 0 { throw ValidationError("--retain must be ≥ 0 seconds") }
    }

    func run() async throws {
        try await reportingErrors {
            options.print(
                try await StoreAdministration.compact(
                    store: options.store, zone: zone, tombstoneRetention: retain.map { .seconds($0) },
                    lockTimeout: options.lockWait, logger: options.logger))
        }
    }
}

struct RepairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Cut damaged zones at their first bad batch; keep what is removed in lost+found/.",
        discussion: """
            Offsets are dense, so every batch after the damage goes too: the report names the \
            offsets lost and the files under STORE/lost+found/ holding every removed byte. A store \
            without damage is left as it is.

            A compaction interrupted by a crash is first finished exactly as the next open would \
            finish it (a damaged swap file goes to lost+found/).

            JSON: {"repairs":[{"zone","file","position","firstLostOffset","reason", \
            "lostOffsets":{"from","to"},"lostBatches","bytesRemoved","lostAndFound":[…]}],"restoredFiles":[…], \
            "finishedSwaps":[…],"quarantinedSwaps":[…]}
            """)

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors {
            options.print(try await StoreAdministration.repair(store: options.store, lockTimeout: options.lockWait, logger: options.logger))
        }
    }
}

struct CheckpointCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Write the key index's snapshot now, so that the next open replays nothing.",
        discussion: """
            JSON: {"replayedEvents","snapshots":[{"file","bytes"}]}
            """)

    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await reportingErrors {
            options.print(
                try await StoreAdministration.checkpoint(store: options.store, lockTimeout: options.lockWait, logger: options.logger))
        }
    }
}
