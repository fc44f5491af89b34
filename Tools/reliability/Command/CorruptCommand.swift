import ArgumentParser
import Foundation
import ReliabilityHarness
import StorageKit

struct CorruptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corrupt",
        abstract: "Flip every byte of a small store's files, one at a time, and open it after each.",
        discussion: """
            Writes a small store with the seeded workload (zones, segments and their indexes, a \
            checkpoint with the key index snapshot; with seed 31, rolled segments and a cleaner \
            checkpoint only from 125 steps on), closes it, then flips each byte of each file \
            (segments, indexes, checkpoint, snapshots, marks, meta and name files; with --only, \
            those under a path) and opens the store for writing: it must \
            open with exactly its prior state, or refuse with a typed error. A different state \
            is a silent loss and fails the run. After each open every file is read back and \
            anything the open changed is put back, so each flip meets an otherwise exact store.

            Prints a line per file (flips, same state, refused, silent), a progress line every \
            --progress seconds, a SILENT line per silent flip (file@position and what differed), \
            and a closing `corrupt` line with the totals and the wall time.

            To use N cores, run N processes with --shard 0/N … --shard N-1/N and one --store \
            directory (Tools/reliability/corrupt-sharded does): each flips every N-th position \
            of the sweep's order, and they sweep copies of the same bytes.

            Example: reliability corrupt --steps 30 --stride 1
            """)

    @Option(help: "Workload steps that write the store.") var steps = 30
    @Option(help: "Flip every STRIDE-th byte of files larger than 256 bytes (1: every byte).") var stride = 1
    @Option(help: "The workload's seed.") var seed: UInt64 = 31
    @Option(help: "I/N: flip only the positions whose index in the sweep's order, modulo N, is I.")
    var shard = "0/1"
    @Option(help: ArgumentHelp(
        "A closed store to sweep a copy of; written there by the workload first when the directory does not exist.",
        discussion: "Shards given one directory sweep the same bytes, and a SILENT flip can be replayed on it."))
    var store: String?
    @Option(help: "Flip only the files whose path in the store starts with this (zones/, snapshots/key-index.mapped).")
    var only = ""
    @Option(help: "Seconds between progress lines.") var progress = 60

    func validate() throws {
        guard CorruptionSweep.Shard(shard) != nil else { throw ValidationError("--shard takes I/N, with 0 ≤ I < N") }
        guard stride > 0, progress > 0 else { throw ValidationError("--stride and --progress take a number above 0") }
    }

    func run() async throws {
        _ = QuietLogging.bootstrapped
        let shard = CorruptionSweep.Shard(self.shard) ?? .whole
        let directory = freshStore("corrupt")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let store {
            let written = try await Self.shared(store, steps: steps, seed: seed)
            try StoreImage(of: store).write(into: directory)
            say("store: a copy of \(store) (\(written ? "written now: \(steps) steps, seed \(seed)" : "as found; --steps and --seed unused"))")
        } else {
            try await HarnessStore.writeClosed(directory, steps: steps, of: Workload(seed: seed))
            say("store: \(steps) steps, seed \(seed)")
        }
        let sweep = try await CorruptionSweep(store: directory)
        let plan = sweep.plan(stride: stride, shard: shard, only: only)
        let total = plan.reduce(0) { $0 + $1.positions.count }
        let label = shard == .whole ? "corrupt" : "corrupt shard \(shard)"
        let scope = only.isEmpty ? "" : " (of them, the \(plan.count) under \(only))"
        say("\(label): \(sweep.files.count) files, \(sweep.files.reduce(0) { $0 + $1.bytes.count }) bytes\(scope), stride \(stride): \(total) flips")

        let clock = ContinuousClock()
        let start = clock.now
        var nextProgress = start.advanced(by: .seconds(progress))
        var counts = Counts()
        for (file, positions) in plan where !positions.isEmpty {
            var fileCounts = Counts()
            for position in positions {
                let flip = try await sweep.flip(file, at: position)
                fileCounts.add(flip.outcome)
                if case .silentlyDifferent = flip.outcome { say("SILENT: \(flip)") }
                if clock.now >= nextProgress {
                    let done = counts.flips + fileCounts.flips
                    let seconds = Self.seconds(clock.now - start)
                    let rate = Double(done) / max(seconds, 0.001)
                    let left = rate > 0 ? "about \(Int(Double(total - done) / rate)) s left" : "none done yet"
                    say("progress: \(done) of \(total) flips, \(Int(seconds)) s, \(Self.format(rate)) flips/s, \(left)")
                    nextProgress = clock.now.advanced(by: .seconds(progress))
                }
            }
            counts.add(fileCounts)
            let size = sweep.files.first { $0.path == file }?.bytes.count ?? 0
            say("\(file) (\(size) bytes): \(fileCounts)")
        }
        let seconds = Self.seconds(clock.now - start)
        say("\(label): \(counts.flips) flips, \(counts.same) same state, \(counts.refused) refused with a typed error, \(counts.silent) silent; \(Int(seconds)) s, \(Self.format(Double(counts.flips) / max(seconds, 0.001))) flips/s")
        if counts.silent > 0 { throw ExitCode(1) }
    }

    /// Writes the workload's store at `path` unless a directory is there: into a directory of its
    /// own first, renamed into place, so that shards started together all take the one that won.
    /// Returns whether this call wrote it.
    private static func shared(_ path: String, steps: Int, seed: UInt64) async throws -> Bool {
        if FileSystem.isDirectory(path) { return false }
        let staging = path + ".tmp-" + UUID().uuidString
        try await HarnessStore.writeClosed(staging, steps: steps, of: Workload(seed: seed))
        do {
            try FileSystem.rename(staging, path)
            return true
        } catch {
            // Another shard's rename came first: its store is the one.
            try? FileSystem.removeTree(staging)
            guard FileSystem.isDirectory(path) else { throw error }
            return false
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

/// Flips by outcome.
private struct Counts: CustomStringConvertible {
    var same = 0
    var refused = 0
    var silent = 0
    var flips: Int { same + refused + silent }

    mutating func add(_ outcome: CorruptionSweep.Outcome) {
        switch outcome {
        case .sameState: same += 1
        case .refused: refused += 1
        case .silentlyDifferent: silent += 1
        }
    }

    mutating func add(_ other: Counts) {
        same += other.same
        refused += other.refused
        silent += other.silent
    }

    var description: String { "\(flips) flips, \(same) same state, \(refused) refused, \(silent) silent" }
}
