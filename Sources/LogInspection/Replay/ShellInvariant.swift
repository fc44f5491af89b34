import Foundation

/// An invariant given as a shell command, as `log-replay bisect --invariant` takes it: the command
/// reads a state on standard input and exits 0 when the state is good.
///
/// ```swift
/// let invariant = ShellInvariant(command: "jq -e 'length < 10' >/dev/null")
/// let good = try await invariant.holds(for: state.json + "\n")
/// ```
///
/// The command runs under `/bin/sh -c`. Its input is written to a temporary file that becomes
/// its standard input, so a command that reads nothing neither blocks the writer nor gets it
/// killed by a broken pipe; the file is written, and the command waited for, off Swift's
/// cooperative pool (on a Dispatch queue, and through `Process`'s termination handler).
public struct ShellInvariant: Sendable {
    /// The command line.
    public let command: String
    /// Where the command's standard output and error go: nil discards them.
    public let output: FileHandle?

    /// An invariant running `command`, with its output sent to `output` (nil: discarded).
    public init(command: String, output: FileHandle? = nil) {
        self.command = command
        self.output = output
    }

    /// Whether the command exits 0 when given `input` on standard input (a signal counts as failure).
    ///
    /// - Throws: ``ReplayError/invariantFailedToRun(command:reason:)`` when the command cannot be started.
    public func holds(for input: String) async throws(ReplayError) -> Bool {
        let command = command, output = output
        let result: Result<Bool, ReplayError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("log-replay-state-\(UUID().uuidString).json")
                do {
                    try Data(input.utf8).write(to: file)
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/bin/sh")
                    process.arguments = ["-c", command]
                    process.standardInput = try FileHandle(forReadingFrom: file)
                    process.standardOutput = output ?? FileHandle.nullDevice
                    process.standardError = output ?? FileHandle.nullDevice
                    process.terminationHandler = { finished in
                        try? FileManager.default.removeItem(at: file)
                        continuation.resume(returning: .success(finished.terminationReason == .exit && finished.terminationStatus == 0))
                    }
                    try process.run()
                } catch {
                    try? FileManager.default.removeItem(at: file)
                    continuation.resume(returning: .failure(.invariantFailedToRun(command: command, reason: "\(error)")))
                }
            }
        }
        return try result.get()
    }
}
