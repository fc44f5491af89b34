#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The seam under file I/O through which reliability tests inject faults: a failing write, a
/// short write, a failing fsync, a process killed at a named point, a power cut.
///
/// Every file operation the toolkit performs (``OpenFile``'s writes, syncs and truncations,
/// ``FileSystem``'s creations, renames, removals and directory syncs) asks ``FileFaults`` first.
/// With no plan installed — always, outside tests and the reliability tools — that is one relaxed
/// atomic load. A plan applies only to paths under its root directory, so suites that run in
/// parallel in one process do not see each other's faults.
package enum FileFaults {
    /// How many plans are installed: the hot path's only cost.
    private static let installedCount = Atomic<Int>(0)
    private static let plans = LockedValue<[FileFaultPlan]>([])

    /// Makes `plan` act on the operations under its root until ``remove(_:)``.
    package static func install(_ plan: FileFaultPlan) {
        plans.withLock { $0.append(plan) }
        installedCount.add(1, ordering: .sequentiallyConsistent)
    }

    /// Stops `plan` from acting.
    package static func remove(_ plan: FileFaultPlan) {
        let removed = plans.withLock { plans -> Bool in
            guard let index = plans.firstIndex(where: { $0 === plan }) else { return false }
            plans.remove(at: index)
            return true
        }
        if removed { installedCount.subtract(1, ordering: .sequentiallyConsistent) }
    }

    /// The fault to inject into `operation` on `path`, or nil to perform it. Also lets a plan
    /// that records for a power cut note the operation (``FileFaultPlan/willPerform(_:)``).
    /// The operation is built only when a plan is installed.
    @inline(__always)
    static func fault(for operation: @autoclosure () -> FileOperation) -> FileFaultEffect? {
        guard installedCount.load(ordering: .relaxed) > 0 else { return nil }
        return slowFault(for: operation())
    }

    /// Notes that `operation` was performed (for a plan that records for a power cut).
    @inline(__always)
    static func didPerform(_ operation: @autoclosure () -> FileOperation) {
        guard installedCount.load(ordering: .relaxed) > 0 else { return }
        let operation = operation()
        for plan in plans(covering: operation.path) { plan.didPerform(operation) }
    }

    private static func slowFault(for operation: FileOperation) -> FileFaultEffect? {
        for plan in plans(covering: operation.path) {
            if let effect = plan.effect(for: operation) { return effect }
        }
        return nil
    }

    private static func plans(covering path: String) -> [FileFaultPlan] {
        plans.withLock { plans in plans.filter { $0.covers(path) } }
    }

    /// Performs `effect` where an operation would have run: throws the error it names, or kills
    /// the process. A short write is the writer's own business (``OpenFile``).
    static func inject(_ effect: FileFaultEffect, operation: String, path: String) throws -> Never {
        switch effect {
        case .fail(let code), .shortWrite(_, let code):
            throw StorageError.io(operation: operation, path: path, errno: code)
        case .crash:
            kill(getpid(), SIGKILL)
            // SIGKILL cannot be caught; should delivery lag, never perform the operation.
            while true { pause() }
        }
    }
}

/// One file-system operation, as a fault plan sees it.
package enum FileOperation: Sendable, Equatable {
    /// Writing `count` bytes at `position` of the file at `path`.
    case write(path: String, position: Int64, count: Int)
    /// `fdatasync` of a file.
    case sync(path: String)
    /// Cutting or extending a file to `size`.
    case truncate(path: String, size: Int64)
    /// Creating a file (`O_CREAT`) or a directory.
    case create(path: String, directory: Bool)
    /// Renaming `from` to `path`.
    case rename(from: String, path: String)
    /// Removing a file or an empty directory.
    case remove(path: String)
    /// `fsync` of a directory, making its entries durable.
    case syncDirectory(path: String)

    /// The path the operation acts on (a rename's target).
    package var path: String {
        switch self {
        case .write(let path, _, _), .sync(let path), .truncate(let path, _), .create(let path, _),
            .rename(_, let path), .remove(let path), .syncDirectory(let path):
            path
        }
    }

    /// The operation's kind, as fault rules and the crash harness name it.
    package var kind: FileOperationKind {
        switch self {
        case .write: .write
        case .sync: .sync
        case .truncate: .truncate
        case .create: .create
        case .rename: .rename
        case .remove: .remove
        case .syncDirectory: .syncDirectory
        }
    }
}

/// The kinds of ``FileOperation``, named as the crash harness's `--fault` option spells them.
package enum FileOperationKind: String, Sendable, CaseIterable {
    case write, sync, truncate, create, rename, remove
    case syncDirectory = "sync-directory"
}

/// What a fault does instead of the operation.
package enum FileFaultEffect: Sendable, Equatable {
    /// The operation is not performed and fails with `errno` (`ENOSPC`, `EIO`, …).
    case fail(errno: Int32)
    /// A write puts only its first `keeping` bytes on the file, then fails with `errno`.
    case shortWrite(keeping: Int, errno: Int32)
    /// The process is killed with SIGKILL before the operation: a crash at a named point.
    case crash
}
