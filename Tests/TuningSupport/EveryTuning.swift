import RecordStore
import Testing

/// Runs each test of a suite three times: with every performance trick off, with the standard
/// thresholds, and with every trick forced on (``CommitTuning``). The tricks must not change a
/// result, so a suite that passes one way must pass every way.
///
/// ```swift
/// @Suite(.everyTuning) struct DatabaseConflictTests { … }
/// ```
///
/// A database takes the tuning current when it opens, so each run opens its own.
public struct EveryTuning: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        for tuning in [CommitTuning.off, .standard, .always] {
            try await CommitTuning.$current.withValue(tuning) { try await function() }
        }
    }
}

extension Trait where Self == EveryTuning {
    /// Runs each test with every trick off, the standard tuning, and every trick on.
    public static var everyTuning: Self { Self() }
}
