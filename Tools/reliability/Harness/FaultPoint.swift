import StorageKit

/// A named point inside the I/O layer where a child writer kills itself: the `skip`-th next
/// operation of a kind (after the write, before the fsync, before a rename…), spelled
/// `KIND:SKIP` on the command line (`sync:12`, `rename:0`).
package struct FaultPoint: Sendable, CustomStringConvertible {
    package var kind: FileOperationKind
    package var skip: Int

    package init(kind: FileOperationKind, skip: Int) {
        self.kind = kind
        self.skip = skip
    }

    package init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let kind = FileOperationKind(rawValue: String(parts[0])), let skip = Int(parts[1]), skip >= 0 else { return nil }
        self.init(kind: kind, skip: skip)
    }

    package var description: String { "\(kind.rawValue):\(skip)" }

    /// A plan that kills the process at this point, for the files under `store`.
    package func plan(store: String) -> FileFaultPlan {
        FileFaultPlan(root: store, rules: [FileFaultRule(kind, skip: skip, times: 1, effect: .crash)])
    }
}
