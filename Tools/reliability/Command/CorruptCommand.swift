import ArgumentParser
import Foundation
import ReliabilityHarness

struct CorruptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corrupt",
        abstract: "Flip every byte of a small store's files, one at a time, and open it after each.",
        discussion: """
            Writes a small store with the seeded workload (zones, rolled segments, a checkpoint), \
            closes it, then flips each byte of each file (segments, indexes, checkpoint, \
            snapshots, marks, meta and name files) and opens the store for writing: it must \
            open with exactly its prior state, or refuse with a typed error. A different state \
            is a silent loss and fails the run.

            Example: reliability corrupt --steps 30 --stride 1
            """)

    @Option(help: "Workload steps that write the store.") var steps = 30
    @Option(help: "Flip every STRIDE-th byte of files larger than 256 bytes (1: every byte).") var stride = 1
    @Option(help: "The workload's seed.") var seed: UInt64 = 31

    func run() async throws {
        _ = QuietLogging.bootstrapped
        let store = freshStore("corrupt")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let database = try await HarnessStore.open(store)
        _ = try await WorkloadRunner.perform(steps, of: Workload(seed: seed), on: database)
        try database.checkpoint()
        try database.close()
        let sweep = try await CorruptionSweep(store: store)
        var counts = (same: 0, refused: 0, silent: 0)
        for file in sweep.files {
            let step = file.bytes.count <= 256 ? 1 : max(1, stride)
            var fileCounts = (same: 0, refused: 0)
            for position in Swift.stride(from: 0, to: file.bytes.count, by: step) {
                let flip = await sweep.flip(file.path, at: position)
                switch flip.outcome {
                case .sameState: counts.same += 1; fileCounts.same += 1
                case .refused: counts.refused += 1; fileCounts.refused += 1
                case .silentlyDifferent:
                    counts.silent += 1
                    say("SILENT: \(flip)")
                }
            }
            say("\(file.path) (\(file.bytes.count) bytes): \(fileCounts.same) same state, \(fileCounts.refused) refused")
        }
        say("corrupt: \(counts.same + counts.refused + counts.silent) flips, \(counts.same) same state, \(counts.refused) refused with a typed error, \(counts.silent) silent")
        if counts.silent > 0 { throw ExitCode(1) }
    }
}
