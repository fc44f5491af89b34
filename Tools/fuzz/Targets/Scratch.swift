import Foundation
import Logging
import StorageKit

/// Where targets that need files write them: a directory of this process's own, in memory
/// (`/dev/shm`) when the machine has it, so that an execution costs no disk I/O.
enum Scratch {
    static let directory: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/recordlog-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Removes the scratch directory (the regression tests, once done; a fuzzing run's is
    /// removed by `Tools/fuzz/run`).
    static func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// A logger that drops everything: recovery logs each cut, millions of times in a run.
    static let silent = Logger(label: "RecordLog.fuzz") { _ in SwiftLogNoOpLogHandler() }

    /// Writes `bytes` to the file `name` in the scratch directory, in place (no temporary file and
    /// rename, which took a tenth of a snapshot target's execution), and returns its path.
    static func write(_ bytes: [UInt8], to name: String) -> String {
        let path = directory + "/" + name
        do {
            let file = try OpenFile(path: path, writable: true, create: true)
            try file.truncate(to: 0)
            try file.write(bytes, at: 0)
        } catch {
            fatalError("fuzz: cannot write \(path): \(error)")
        }
        return path
    }

    /// A new empty directory under the scratch directory.
    static func freshDirectory(_ name: String) -> String {
        let path = directory + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path of the first file under `directory` whose name ends with `suffix`.
    static func firstFile(under directory: String, endingWith suffix: String) -> String? {
        guard let names = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] else { return nil }
        return names.sorted().first { $0.hasSuffix(suffix) }.map { directory + "/" + $0 }
    }
}
