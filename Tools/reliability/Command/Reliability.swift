import ArgumentParser
import Foundation
import Logging
import ReliabilityHarness
import StorageKit

@main
struct Reliability: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reliability",
        abstract: "Kill, starve and corrupt a store, and check it keeps every promise.",
        discussion: """
            The long forms of the harnesses that `swift test` runs briefly (RELIABILITY.md):
              reliability crash --kills 1000          child writers killed with SIGKILL, store checked after each
              reliability power-loss --cuts 500       power cut after a random number of file operations
              reliability corrupt                     every byte of a small store flipped, one at a time
              reliability notes-kill --rounds 300     notes writers killed while notes readers look
            Each prints one line per round and a summary; it exits 1 at the first broken promise,
            leaving the store behind for `log-inspect`.
            """,
        subcommands: [CrashCommand.self, PowerLossCommand.self, CorruptCommand.self, NotesKillCommand.self, ChildCommand.self])
}

/// A fresh store directory under the system's temporary directory.
func freshStore(_ label: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("reliability-\(label)-\(UUID().uuidString)").path
}

/// Writes a line to standard output at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Warnings and errors only: a long run's per-open notices would drown its report.
enum QuietLogging {
    static let bootstrapped: Void = LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = .warning
        return handler
    }
}
