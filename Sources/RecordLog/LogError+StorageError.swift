import StorageKit

extension LogError {
    /// The log's error for one of the toolkit's: what reaches a caller of RecordLog is a
    /// `LogError` (or an error its own closures threw), never a toolkit type.
    package init(_ error: StorageError) {
        switch error {
        case .io(let operation, let path, let code): self = .io(operation: operation, path: path, errno: code)
        case .malformedFrame(let reason): self = .malformedFrame(reason: reason)
        case .decompressedSizeExceeded(let limit): self = .decompressedSizeExceeded(limit: limit)
        }
    }

    /// Runs `body`, turning a toolkit error it throws into the log's. Every public throwing
    /// entry point of RecordLog runs its body through this.
    package static func translating<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as StorageError { throw LogError(error) }
    }

    /// Runs `body`, turning a toolkit error it throws into the log's; see ``translating(_:)-(()->T)``.
    package static func translating<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as StorageError { throw LogError(error) }
    }
}
