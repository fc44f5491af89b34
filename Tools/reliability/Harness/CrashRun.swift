import Foundation

/// The crash harness's parent: runs child writers on one store, kills each with SIGKILL — at a
/// random acknowledged step, or lets it kill itself at a fault point — then reopens the store
/// and checks it against the expected-state oracle: every acknowledged commit present with its
/// content, no half commit visible, `verify` clean after one writing open.
package struct CrashRun {
    /// Where a round's child dies.
    package enum Kill: Sendable, CustomStringConvertible {
        /// SIGKILL from the parent once the child has acknowledged this many steps of the round.
        case afterAcknowledged(Int)
        /// The child kills itself at a fault point inside the I/O layer.
        case at(FaultPoint)

        package var description: String {
            switch self {
            case .afterAcknowledged(let count): "kill after \(count) acknowledged"
            case .at(let point): "crash at \(point)"
            }
        }
    }

    /// What one round did.
    package struct Round: Sendable, CustomStringConvertible {
        package var kill: Kill
        /// Steps the child acknowledged in this round.
        package var acknowledged: Int
        /// Whether the commit in flight turned out durable.
        package var inFlightSurvived: Bool
        /// Whether the child died (a fault point may not be reached before its step budget).
        package var killed: Bool

        package var description: String {
            "\(kill): \(acknowledged) acknowledged, in flight \(inFlightSurvived ? "kept" : "gone"), \(killed ? "killed" : "finished")"
        }
    }

    package let executable: URL
    package let store: String
    package let workload: Workload
    /// Steps the store holds now, and their model.
    package private(set) var steps = 0
    package private(set) var model = StoreModel()
    /// Steps a child may perform in one round.
    package var stepsPerRound = 400

    package init(executable: URL, store: String, seed: UInt64) {
        self.executable = executable
        self.store = store
        workload = Workload(seed: seed)
    }

    /// Runs one child to its death and checks the store it leaves.
    package mutating func round(_ kill: Kill) async throws -> Round {
        var arguments = ["child", "--store", store, "--seed", "\(workload.seed)", "--start", "\(steps)", "--steps", "\(stepsPerRound)"]
        if case .at(let point) = kill { arguments += ["--crash-at", point.description] }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let start = steps
        let lines = try await OffThread.run { () -> [String] in
            let reader = output.fileHandleForReading
            var text = ""
            var acks = 0
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
                acks = text.split(separator: "\n").filter { $0.hasPrefix("ack ") }.count
                if case .afterAcknowledged(let target) = kill, acks >= target, process.isRunning {
                    kill_(process.processIdentifier)
                }
            }
            process.waitUntilExit()
            return text.split(separator: "\n").map(String.init)
        }
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        guard lines.first == "ready" || killed else {
            throw HarnessError.child("exited with \(process.terminationStatus) before it was ready: \(lines.prefix(3))")
        }
        if !killed, process.terminationStatus != 0 {
            throw HarnessError.child("exited with \(process.terminationStatus) (\(lines.suffix(2)))")
        }
        let acknowledged = lines.compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }.last ?? start
        let actual = try await HarnessStore.recoverAndRead(store)
        let matched = try HarnessStore.match(actual, workload: workload, base: model, start: start, acknowledged: acknowledged)
        steps = matched.steps
        model = matched.model
        return Round(kill: kill, acknowledged: acknowledged - start, inFlightSurvived: matched.steps > acknowledged, killed: killed)
    }
}

/// SIGKILL, by another name than the enum case `Kill`.
private func kill_(_ pid: Int32) {
    kill(pid, SIGKILL)
}
