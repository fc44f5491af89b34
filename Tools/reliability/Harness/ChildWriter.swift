import Foundation
import RecordStore
import StorageKit

/// The crash harness's child: opens the store, performs workload steps from `start` on, and
/// prints `ack N` (N steps done in all) on standard output after each one is acknowledged, until
/// it is killed — by its parent at a random moment, or by itself at a fault point.
package enum ChildWriter {
    package static func run(store: String, seed: UInt64, start: Int, steps: Int, crashAt: FaultPoint?) async throws {
        if let crashAt { FileFaults.install(crashAt.plan(store: store)) }
        let workload = Workload(seed: seed)
        var model = workload.model(after: start)
        let database = try await HarnessStore.open(store)
        say("ready")
        for index in start..<(start + steps) {
            let step = workload.step(index, after: model)
            try await WorkloadRunner.perform(step, on: database)
            model.apply(step)
            say("ack \(index + 1)")
        }
        try database.close()
        say("done")
    }

    /// Writes a line straight to standard output: nothing buffered is lost when the parent kills.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
