#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls the log needs, each turning errno into `StorageError.io`.
package enum FileSystem {
    /// Runs `call` until it does not fail with EINTR; throws on any other failure (a negative result).
    @discardableResult
    package static func retrying<T: BinaryInteger>(_ operation: String, _ path: String, _ call: () -> T) throws -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw StorageError.io(operation: operation, path: path, errno: errno)
        }
    }

    /// The directory that holds `path` ("." for a bare name).
    package static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates a directory with mode 0700, and its missing parents with 0755; succeeds if it
    /// already exists as a directory. With
    /// `durably`, a directory it creates is made to survive a power loss: its parent is fsynced,
    /// which makes the new entry durable (a store's own directory: without it a power cut could
    /// take the whole store with it).
    package static func makeDirectory(_ path: String, durably: Bool = false) throws {
        try makeDirectory(path, durably: durably, mode: 0o700)
    }

    private static func makeDirectory(_ path: String, durably: Bool, mode: mode_t) throws {
        if let fault = FileFaults.fault(for: .create(path: path, directory: true)) { try FileFaults.inject(fault, operation: "mkdir", path: path) }
        if mkdir(path, mode) == 0 {
            FileFaults.didPerform(.create(path: path, directory: true))
            if durably { try syncDirectory(parent(of: path)) }
            return
        }
        let code = errno
        if code == EEXIST, isDirectory(path) { return }
        // A missing parent is made first, as `mkdir -p` does (a store under a fresh
        // ~/.local/share): with mode 0755, since it belongs to the user, not to the store.
        let parent = parent(of: path)
        if code == ENOENT, parent != path, !parent.isEmpty, parent != "/" {
            try makeDirectory(parent, durably: durably, mode: 0o755)
            return try makeDirectory(path, durably: durably)
        }
        throw StorageError.io(operation: "mkdir", path: path, errno: code)
    }

    /// The names in a directory, without "." and "..", sorted.
    package static func list(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw StorageError.io(operation: "opendir", path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Makes a directory's entries (files created, renamed or removed in it) durable.
    package static func syncDirectory(_ path: String) throws {
        if let fault = FileFaults.fault(for: .syncDirectory(path: path)) { try FileFaults.inject(fault, operation: "fsync", path: path) }
        let descriptor = try retrying("open", path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(descriptor) }
        try retrying("fsync", path) { fsync(descriptor) }
        FileFaults.didPerform(.syncDirectory(path: path))
    }

    package static func rename(_ from: String, _ to: String) throws {
        if let fault = FileFaults.fault(for: .rename(from: from, path: to)) { try FileFaults.inject(fault, operation: "rename", path: from) }
        try retrying("rename", from) { Glibc.rename(from, to) }
        FileFaults.didPerform(.rename(from: from, path: to))
    }

    package static func remove(_ path: String) throws {
        if let fault = FileFaults.fault(for: .remove(path: path)) { try FileFaults.inject(fault, operation: "unlink", path: path) }
        if unlink(path) == 0 {
            FileFaults.didPerform(.remove(path: path))
            return
        }
        if errno == ENOENT { return }
        throw StorageError.io(operation: "unlink", path: path, errno: errno)
    }

    /// Removes a directory and everything in it.
    package static func removeTree(_ path: String) throws {
        for name in try list(path) {
            let child = join(path, name)
            if isDirectory(child) { try removeTree(child) } else { try remove(child) }
        }
        if let fault = FileFaults.fault(for: .remove(path: path)) { try FileFaults.inject(fault, operation: "rmdir", path: path) }
        if rmdir(path) == 0 {
            FileFaults.didPerform(.remove(path: path))
        } else if errno != ENOENT {
            throw StorageError.io(operation: "rmdir", path: path, errno: errno)
        }
    }

    /// Replaces `path` with `bytes` atomically: temporary file, fsync, rename, fsync of the directory.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws {
        try writeAtomically(to: path, directory: directory) { try $0.write(bytes, at: 0) }
    }

    /// Replaces `path` with what `body` writes into a new file, atomically: temporary file, fsync,
    /// rename, fsync of the directory. If `body` throws, the temporary file is removed.
    package static func writeAtomically(to path: String, directory: String, _ body: (OpenFile) throws -> Void) throws {
        let temporary = path + ".tmp"
        try remove(temporary)
        do {
            let file = try OpenFile(path: temporary, writable: true, create: true, exclusive: true)
            try body(file)
            try file.syncData()
        } catch {
            try? remove(temporary)
            throw error
        }
        try rename(temporary, path)
        try syncDirectory(directory)
    }

    /// The whole content of a small file.
    package static func readAll(_ path: String) throws -> [UInt8] {
        let file = try OpenFile(path: path, writable: false)
        return try file.read(at: 0, count: Int(try file.size()))
    }

    /// A file's bytes up to its end, read without trusting its size: a /proc file's size is 0
    /// (``readAll(_:)`` would read nothing).
    package static func readToEnd(_ path: String) throws -> [UInt8] {
        let file = try OpenFile(path: path, writable: false)
        var bytes: [UInt8] = []
        while true {
            let chunk = try file.read(at: Int64(bytes.count), count: 1 << 16)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }
}
