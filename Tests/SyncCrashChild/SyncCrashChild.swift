#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RecordLog
import RecordStore
import RecordSync

/// A test-support executable, never shipped: a device that dies (SIGKILL, no cleanup of any
/// kind) in the middle of its work, for the sync crash tests (SyncCrashTests).
///
///     sync-crash-child save DEVICE COUNT         saves COUNT notes, printing "saved N" after each
///                                                 returns, then dies before sending any
///     sync-crash-child send DEVICE REMOTE STEP [MAX_BATCH_BYTES]
///                                                 sends the pending changes to the store REMOTE
///                                                 and dies at STEP (a SyncStep name)
///     sync-crash-child fetch DEVICE REMOTE STEP [MAX_BATCH_BYTES]
///                                                 fetches the remote's changes into DEVICE and
///                                                 dies at STEP
///
/// Both stores are opened with fsync durability, and the device with MAX_BATCH_BYTES as its
/// largest commit when given (small: so that its commits split, not the remote's). Exit 2 on bad
/// usage, 1 on an error.
@main
struct SyncCrashChild {
    static let zone = ZoneID(zoneName: "Notes")

    static func main() async {
        let arguments = CommandLine.arguments
        do {
            switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
            case (4, "save"):
                guard let count = Int(arguments[3]) else { usage() }
                let device = try await Database(directory: arguments[2], durability: .fsync)
                for index in 0..<count {
                    var note = Record(recordType: "Note", recordID: RecordID(recordName: "crash\(index)", zoneID: zone))
                    note["text"] = .string("note \(index)")
                    _ = try await device.save(note)
                    say("saved \(index)")
                }
                kill(getpid(), SIGKILL)
            case (5...6, "send"), (5...6, "fetch"):
                guard let step = SyncStep(rawValue: arguments[4]) else { usage() }
                var options = LogOptions(durability: .fsync)
                if arguments.count == 6 {
                    guard let bytes = Int(arguments[5]) else { usage() }
                    options.maxBatchBytes = bytes
                }
                SyncHook.stepReached.withLock { hook in
                    hook = { reached in if reached == step { kill(getpid(), SIGKILL) } }
                }
                let device = try await Database(directory: arguments[2], options: options)
                let remote = try await Database(directory: arguments[3], durability: .fsync)
                let engine = SyncEngine(local: device, remote: remote, configuration: .init(automaticallySync: false))
                if arguments[1] == "send" { try await engine.sendChanges() } else { try await engine.fetchChanges() }
                say("synced without dying")
                exit(1)
            default:
                usage()
            }
        } catch {
            say("error: \(error)")
            exit(1)
        }
    }

    static func usage() -> Never {
        say("usage: sync-crash-child save DEVICE COUNT | send DEVICE REMOTE STEP [MAX_BATCH_BYTES] | fetch DEVICE REMOTE STEP [MAX_BATCH_BYTES]")
        exit(2)
    }

    /// Writes a line to standard output at once (unbuffered: the process may die next).
    static func say(_ message: String) {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
}
