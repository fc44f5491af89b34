/// Small files written the crash-safe way — for the layers above the log that keep their own
/// snapshots beside it (mode 0600, directories 0700).
package enum DurableFile {
    /// Replaces the file at `path` with `bytes` atomically and durably: a temporary file, fsync,
    /// rename, fsync of the directory. The directory is created (0700) when missing.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let parent = directory.isEmpty ? "." : directory
        try FileSystem.makeDirectory(parent)
        try FileSystem.writeAtomically(bytes, to: path, directory: parent)
    }

    /// Replaces the file at `path` atomically and durably with the bytes `body` writes, front to
    /// back, as ``write(_:to:)`` does; if `body` throws, the file is left as it was.
    package static func write(to path: String, _ body: (DurableFileWriter) throws -> Void) throws {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let parent = directory.isEmpty ? "." : directory
        try FileSystem.makeDirectory(parent)
        try FileSystem.writeAtomically(to: path, directory: parent) { file in
            let writer = DurableFileWriter(file: file)
            try body(writer)
            try writer.flush()
        }
    }

    /// The file's bytes, or nil when it does not exist.
    package static func read(_ path: String) throws -> [UInt8]? {
        guard FileSystem.exists(path) else { return nil }
        return try FileSystem.readAll(path)
    }

    /// Removes the file if it exists.
    package static func remove(_ path: String) throws {
        try FileSystem.remove(path)
    }
}
