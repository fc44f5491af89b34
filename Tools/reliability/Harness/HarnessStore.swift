import LogInspection
import RecordLog
import RecordStore

/// How the harness opens, recovers and checks a store.
package enum HarnessStore {
    /// Small segments and frequent checkpoints, so that a short run rolls segments and writes
    /// checkpoints many times: the crash windows the harness is after.
    package static var options: LogOptions {
        var options = LogOptions(durability: .fsync)
        options.compression = .lz4
        options.segmentBytes = 256 << 10
        options.preallocationBytes = 64 << 10
        return options
    }

    /// Opens for writing, with the harness's view registered: its snapshot is written with
    /// every checkpoint.
    package static func open(_ directory: String) async throws -> Database {
        try withView(try await Database(directory: directory, options: options, checkpointAfterEvents: 300))
    }

    /// `database` with ``ItemsView`` registered; closed when the registration fails.
    private static func withView(_ database: Database) throws -> Database {
        do {
            _ = try database.register(ItemsView.self)
        } catch {
            try? database.close()
            throw error
        }
        return database
    }

    /// Writes the first `steps` steps of `workload` into a new store at `directory`, checkpoints
    /// and closes it: the small store the corruption sweep flips. Returns its model.
    @discardableResult
    package static func writeClosed(_ directory: String, steps: Int, of workload: Workload) async throws -> StoreModel {
        let database = try await open(directory)
        let model: StoreModel
        do {
            model = try await WorkloadRunner.perform(steps, of: workload, on: database)
            try database.checkpoint()
        } catch {
            try? database.close()
            throw error
        }
        try database.close()
        return model
    }

    /// Opens for writing without fsyncs and without a checkpoint at close: for the corruption
    /// sweep, which opens a store thousands of times and asks only what the open makes of it.
    package static func openWithoutSyncs(_ directory: String) async throws -> Database {
        var options = options
        options.durability = .noSyncUnsafe
        return try withView(try await Database(directory: directory, options: options, checkpointAfterEvents: .max))
    }

    /// Opens the store for writing (which recovers it), reads everything, closes it, and checks
    /// that `verify` finds it clean.
    package static func recoverAndRead(_ directory: String) async throws -> StoreModel {
        let database = try await open(directory)
        let model: StoreModel
        do {
            model = try await StoreReader.model(of: database)
        } catch {
            try? database.close()
            throw error
        }
        try database.close()
        try verifyClean(directory)
        return model
    }

    /// Throws unless `verify` finds the store clean.
    package static func verifyClean(_ directory: String) throws {
        let report = try Verify.run(InspectTarget(path: directory))
        guard report.isClean else { throw HarnessError.notClean("\(report.status): \(report.problems.prefix(3))") }
    }

    /// How many steps of `workload` the store reflects, given that it held `base` after `start`
    /// steps and a writer then acknowledged steps up to `acknowledged`: exactly those, or one more
    /// (the commit in flight when it died). Anything else is a lost or half-applied commit.
    package static func match(
        _ actual: StoreModel, workload: Workload, base: StoreModel, start: Int, acknowledged: Int
    ) throws -> (steps: Int, model: StoreModel) {
        let expected = workload.model(from: base, steps: start..<acknowledged)
        if actual == expected { return (acknowledged, expected) }
        var next = expected
        next.apply(workload.step(acknowledged, after: expected))
        if actual == next { return (acknowledged + 1, next) }
        throw HarnessError.stateMismatch(acknowledged: acknowledged, difference: expected.differences(from: actual))
    }
}
