#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RecordLog
import Synchronization

/// A test-support executable, never shipped: compacts one partition of a store and kills itself
/// (SIGKILL, no cleanup of any kind) when the compaction reaches a named step, so that the crash
/// tests can check what the next open recovers at every step.
///
///     compaction-crash-child STORE PARTITION STEP [OCCURRENCE [SEGMENT_BYTES]]
///
/// STEP is a `CompactionStep` name (`swapReady`, …) or `none` (run to the end); OCCURRENCE
/// (1 by default) picks which time the step is reached, for steps taken once per cleaned group;
/// SEGMENT_BYTES is the log's segment size (it decides how segments group).
/// Tombstones are all dropped (retention 0), so that every step happens. Exit 0 when the
/// compaction finished, 2 on bad usage, 1 on an error.
@main
struct CompactionCrashChild {
    /// How many times the step was reached.
    static let seen = Atomic<Int>(0)

    static func main() {
        let arguments = CommandLine.arguments
        guard (4...6).contains(arguments.count) else {
            complain("usage: compaction-crash-child STORE PARTITION STEP [OCCURRENCE [SEGMENT_BYTES]]")
            exit(2)
        }
        let step = arguments[3] == "none" ? nil : CompactionStep(rawValue: arguments[3])
        guard arguments[3] == "none" || step != nil else {
            complain("unknown step \(arguments[3])")
            exit(2)
        }
        let occurrence = arguments.count >= 5 ? Int(arguments[4]) ?? 1 : 1
        var options = LogOptions()
        if arguments.count == 6, let bytes = Int(arguments[5]) { options.segmentBytes = bytes }
        CompactionHook.stepReached.withLock { hook in
            hook = { reached in
                guard reached == step, seen.add(1, ordering: .relaxed).newValue == occurrence else { return }
                kill(getpid(), SIGKILL)
            }
        }
        do {
            let log = try Log(directory: arguments[1], options: options)
            try log.partition(named: arguments[2]).compact(CompactionOptions(tombstoneRetentionMilliseconds: 0))
            try log.close()
        } catch {
            complain("\(error)")
            exit(1)
        }
    }

    /// Writes a line to standard error.
    static func complain(_ message: String) {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
