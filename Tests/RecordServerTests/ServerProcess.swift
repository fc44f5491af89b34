import Foundation
import Testing
import TestSupport

/// The built `recordlog-server` executable running as a child process, its first stdout line
/// read to learn the port.
final class ServerProcess: @unchecked Sendable {
    let process: Process
    let url: URL
    private let errorsFile: URL

    /// Starts `recordlog-server serve --root ROOT --port 0` and waits for its "listening on" line.
    convenience init(root: String, extraArguments: [String] = []) async throws {
        try await self.init(serving: ["--root", root] + extraArguments)
    }

    /// Starts a node of a cluster: `recordlog-server serve --postgres URL --cache CACHE --port 0`.
    convenience init(postgres: String, cache: String) async throws {
        try await self.init(serving: ["--postgres", postgres, "--cache", cache])
    }

    /// Starts `recordlog-server serve ARGUMENTS --port 0` and waits for its "listening on" line.
    init(serving arguments: [String]) async throws {
        let executable = try #require(ChildProcess.builtExecutable("recordlog-server"), "the recordlog-server executable is built with the tests")
        errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("server-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--log-level", "warning"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        self.process = process
        let line = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    bytes += chunk
                }
                continuation.resume(returning: String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
            }
        }
        let prefix = "listening on "
        guard line.hasPrefix(prefix), let url = URL(string: String(line.dropFirst(prefix.count))) else {
            process.terminate()
            throw ServerProcessError.noListeningLine(line)
        }
        self.url = url
    }

    /// Sends `signal` and waits for the process to exit; returns its status.
    func stop(signal: Int32 = SIGTERM) async -> Int32 {
        kill(process.processIdentifier, signal)
        await ChildProcess.exit(of: process)
        return process.terminationStatus
    }

    /// What the server wrote on stderr.
    var errors: String { (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: errorsFile)
    }
}

enum ServerProcessError: Error {
    case noListeningLine(String)
}
