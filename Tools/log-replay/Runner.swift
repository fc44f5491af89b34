import ArgumentParser
import Foundation
import LogInspection

/// Runs a command: opens the store, prints what the body returns, and turns a refusal into a
/// message on standard error and exit status 1.
enum Runner {
    static func run(store path: String, _ body: (ReplayStore) async throws -> (output: String, warnings: [String])) async throws {
        do {
            let store = try ReplayStore(directory: path)
            defer { store.close() }
            let (output, warnings) = try await body(store)
            for warning in warnings { standardError("log-replay: warning: \(warning)\n") }
            if !output.isEmpty { print(output) }
        } catch let error as ReplayError {
            standardError("log-replay: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// A progress bar on standard error when it is a terminal and the output is not JSON.
    static func progressBar(json: Bool, label: String) -> ProgressBar? {
        json ? nil : ProgressBar.onStandardError(label: label)
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Optional where Wrapped == ProgressBar {
    /// The bar's update function, or nil.
    var handler: ReplayProgressHandler? {
        map { bar in { bar.update(done: $0, total: $1) } }
    }
}
