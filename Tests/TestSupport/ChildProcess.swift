import Foundation

/// Runs the package's executables (and other programs) from tests.
public enum ChildProcess {
    /// What a finished child printed and how it exited.
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: Data
        public var errors: Data

        public var outputText: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// An executable the package built, found next to the test bundle (up to four levels up).
    public static func builtExecutable(_ name: String) -> URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0...4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `executable` to completion. Standard error goes to a file, so a child that writes a
    /// lot to both streams cannot block on a full pipe.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorsFile.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: printed, errors: try Data(contentsOf: errorsFile))
    }

    /// Starts `executable` and returns without waiting for it: the caller stops it (`kill`) and
    /// waits (`waitUntilExit`). Its output and errors go to /dev/null, so it can never block on a
    /// full pipe however long it runs.
    public static func start(_ executable: URL, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `executable` to completion on a dispatch thread, suspending the calling task: an async
    /// test that waits for a child this way holds none of the few cooperative threads that every
    /// other test running in parallel needs.
    public static func finish(_ executable: URL, _ arguments: [String]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try run(executable, arguments) }) }
        }
    }

    /// Waits for a started child to exit on a dispatch thread, suspending the calling task (see
    /// ``finish(_:_:)``).
    public static func exit(of process: Process) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    /// Runs `body` on a thread of its own and suspends the calling task until it returns: for
    /// blocking waits (a child's exit, a pipe's end), which must hold no thread of the
    /// cooperative pool that every other test running in parallel needs.
    public static func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Runs `executable` to completion as ``run(_:_:environment:)`` does, waiting on a thread of
    /// its own (``onOwnThread(_:)``) rather than on the calling task's.
    public static func runOnOwnThread(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await onOwnThread { try run(executable, arguments, environment: environment) }
    }

    /// Runs a program found on the PATH, through /usr/bin/env.
    public static func run(program arguments: [String]) throws -> Outcome {
        try run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
    }
}
