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

    /// Runs `executable` to completion on a thread of its own, suspending the calling task: a test
    /// that waits for a child holds none of the few cooperative threads (two on a two-core
    /// machine) that every other test running in parallel needs — nor a thread of the global
    /// dispatch queue, which a full run's other waits can starve. Standard error goes to a file,
    /// so a child that writes a lot to both streams cannot block on a full pipe.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await onOwnThread { try runBlocking(executable, arguments, environment: environment) }
    }

    /// Starts `process`, one launch at a time in the test process: Foundation's `Process.run()`
    /// is not safe to call from two threads at once on Linux (a full run crashed in its copy of
    /// the arguments while another test launched a server).
    public static func launch(_ process: Process) throws {
        launching.lock()
        defer { launching.unlock() }
        try process.run()
    }

    private static let launching = NSLock()

    /// Runs `executable` to completion, blocking the calling thread.
    private static func runBlocking(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Outcome {
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
        try launch(process)
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
        try launch(process)
        return process
    }

    /// Waits for a started child to exit on a thread of its own, suspending the calling task (see
    /// ``run(_:_:environment:)``).
    public static func exit(of process: Process) async {
        await onOwnThread { process.waitUntilExit() }
    }

    /// Runs `work`, which blocks (a child's exit, a pipe's end), on a new thread and suspends the
    /// caller until it is done: the wait holds no thread of the cooperative pool that every
    /// other test running in parallel needs.
    public static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "ChildProcess wait"
            thread.start()
        }
    }

    /// Runs `work`, which blocks and cannot fail, on a new thread (see above).
    private static func onOwnThread(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                work()
                continuation.resume()
            }
            thread.name = "ChildProcess wait"
            thread.start()
        }
    }

    /// Runs a program found on the PATH, through /usr/bin/env.
    public static func run(program arguments: [String]) async throws -> Outcome {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
    }
}
