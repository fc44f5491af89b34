import Foundation

/// Runs blocking work (reading a child's pipe, waiting for it to exit) on a thread of its own,
/// so that the cooperative pool the async callers run on is never blocked.
enum OffThread {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.start()
        }
    }
}
