#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which operations fail, and how: the rule of one injected fault.
package struct FileFaultRule: Sendable {
    /// The kind of operation it matches.
    package var kind: FileOperationKind
    /// Only paths that end with this (a segment's `.log`, a `durable-end`, a `.tmp`); nil for any.
    package var pathSuffix: String?
    /// How many matching operations are let through before the first fault.
    package var skip: Int
    /// How many matching operations fail after those; nil for every one.
    package var times: Int?
    /// What happens instead.
    package var effect: FileFaultEffect

    package init(_ kind: FileOperationKind, pathSuffix: String? = nil, skip: Int = 0, times: Int? = 1, effect: FileFaultEffect) {
        self.kind = kind
        self.pathSuffix = pathSuffix
        self.skip = skip
        self.times = times
        self.effect = effect
    }

    func matches(_ operation: FileOperation) -> Bool {
        operation.kind == kind && (pathSuffix.map { operation.path.hasSuffix($0) } ?? true)
    }
}

/// A set of faults for the files under one directory, installed with ``FileFaults/install(_:)``.
///
/// Rules inject errors and crashes; a power cut (``cutPower()`` or `powerCutAfter`) makes every
/// later operation under the root fail with `EIO`, as if the machine had stopped, and a
/// ``PowerLossJournal`` given at creation then tells what the disk would hold.
package final class FileFaultPlan: Sendable {
    private struct RuleState {
        var rule: FileFaultRule
        var seen = 0
    }

    private struct State {
        var rules: [RuleState]
        var operations = 0
        var injected = 0
        var powerCutAfter: Int?
        var powerCut = false
    }

    /// The directory whose files (at any depth) the plan acts on.
    package let root: String
    /// Records what reached the disk, when the plan simulates power loss.
    package let journal: PowerLossJournal?
    private let state: LockedValue<State>

    /// - Parameters:
    ///   - root: the directory the plan acts under.
    ///   - rules: the faults to inject, each counting its own matching operations.
    ///   - powerCutAfter: cut the power once this many operations have been performed.
    ///   - journal: records operations so that ``PowerLossJournal/simulatePowerLoss(_:)`` can
    ///     put the files back to what the last syncs made durable.
    package init(root: String, rules: [FileFaultRule] = [], powerCutAfter: Int? = nil, journal: PowerLossJournal? = nil) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.journal = journal
        state = LockedValue(State(rules: rules.map { RuleState(rule: $0) }, powerCutAfter: powerCutAfter))
    }

    /// How many faults the plan has injected.
    package var injectedCount: Int { state.withLock { $0.injected } }

    /// How many operations under the root were performed or refused.
    package var operationCount: Int { state.withLock { $0.operations } }

    /// Whether the power is cut: every operation under the root now fails.
    package var isPowerCut: Bool { state.withLock { $0.powerCut } }

    /// Cuts the power now.
    package func cutPower() { state.withLock { $0.powerCut = true } }

    /// Whether the plan acts on an operation on `path`: the root and anything under it, never
    /// its ancestors (which other suites running in the same process share).
    func covers(_ path: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }

    func effect(for operation: FileOperation) -> FileFaultEffect? {
        state.withLock { state -> FileFaultEffect? in
            if state.powerCut { return .fail(errno: EIO) }
            if let limit = state.powerCutAfter, state.operations >= limit {
                state.powerCut = true
                return .fail(errno: EIO)
            }
            state.operations += 1
            for index in state.rules.indices where state.rules[index].rule.matches(operation) {
                let seen = state.rules[index].seen
                state.rules[index].seen += 1
                let rule = state.rules[index].rule
                guard seen >= rule.skip else { continue }
                if let times = rule.times, seen - rule.skip >= times { continue }
                state.injected += 1
                return rule.effect
            }
            journal?.willPerform(operation)
            return nil
        }
    }

    func didPerform(_ operation: FileOperation) {
        journal?.didPerform(operation)
    }
}
