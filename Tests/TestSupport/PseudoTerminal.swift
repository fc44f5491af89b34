import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs an executable with its standard error on a pseudo-terminal, as a person at a terminal
/// runs it: for tests of what a tool draws only there (progress bars).
public enum PseudoTerminal {
    /// What the child printed on standard output, what it wrote to the terminal, how it exited.
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: Data
        public var terminal: Data

        public var terminalText: String { String(decoding: terminal, as: UTF8.self) }
    }

    /// Runs `executable` to completion with standard error on a new pseudo-terminal (standard
    /// input from /dev/null, standard output to a pipe). The blocking reads and the wait run on
    /// a thread of their own (``ChildProcess/onOwnThread(_:)``).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await ChildProcess.onOwnThread { try runBlocking(executable, arguments, environment: environment) }
    }

    /// `TIOCSPTLCK`, `_IOW('T', 0x31, int)`: locks or unlocks the terminal's other end.
    private static let setLock: UInt = 0x4004_5431
    /// `TIOCGPTN`, `_IOR('T', 0x30, unsigned int)`: the number of the terminal's other end.
    private static let getNumber: UInt = 0x8004_5430

    private static func runBlocking(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> Outcome {
        // posix_openpt, unlockpt and ptsname, which Swift's Glibc module does not export, are
        // these on Linux: the multiplexer, then two ioctls (<asm-generic/ioctls.h>).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(master) }
        var unlock: CInt = 0, number: CUnsignedInt = 0
        guard ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        do { try ChildProcess.launch(process) } catch {
            close(slave)
            throw error
        }
        // The child has its own copy: once it exits, reading the master ends (EIO).
        close(slave)
        // Standard output is read beside the terminal, so that neither can fill and block the child.
        let printed = LockedData()
        let reader = Thread { printed.set(output.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        var terminal = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count > 0 {
                terminal.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: printed.wait(), terminal: terminal)
    }
}

/// Data handed from one thread to another, waited for.
private final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}
