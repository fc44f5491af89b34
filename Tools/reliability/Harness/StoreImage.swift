#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StorageKit

/// Every file of a closed store, with its bytes, and every directory: what the corruption sweep
/// puts back after each flip.
///
/// Taken and put back with plain system calls (`opendir`, `lstat`, `pread`, `pwrite`), not
/// Foundation: the sweep does it once per flip, hundreds of thousands of times. The store's
/// lock file holds no data and is neither taken nor checked.
package struct StoreImage: Sendable {
    /// One file, by its path relative to the store.
    package struct File: Sendable {
        package var path: String
        package var bytes: [UInt8]
    }

    /// Every file but the lock file, sorted by path.
    package let files: [File]
    /// Every directory below the store, relative to it.
    package let directories: Set<String>

    /// The files and directories below `directory` now.
    package init(of directory: String) throws {
        let tree = try Self.walk(directory)
        files = try tree.files.map { relative, _ in
            File(path: relative, bytes: try FileSystem.readAll(FileSystem.join(directory, relative)))
        }.sorted { $0.path < $1.path }
        directories = Set(tree.directories)
    }

    /// The file at `path` (relative), if the image has it.
    package func file(_ path: String) -> File? {
        files.first { $0.path == path }
    }

    /// Makes `directory` hold exactly this image: creates missing directories, removes files and
    /// directories the image lacks (the lock file aside), and rewrites every file whose bytes
    /// differ — each file is read and compared whole, so a change of any byte, or of the size,
    /// is put back. Returns the paths it created, rewrote or removed (a directory's with a
    /// trailing slash), sorted.
    @discardableResult
    package func restore(into directory: String) throws -> [String] {
        var changed: [String] = []
        let tree = try Self.walk(directory)
        let wanted = Set(files.map(\.path))
        // Deepest first, so a directory is empty when its turn comes.
        for relative in tree.directories.sorted(by: >) where !directories.contains(relative) {
            try FileSystem.removeTree(FileSystem.join(directory, relative))
            changed.append(relative + "/")
        }
        for (relative, _) in tree.files where !wanted.contains(relative) {
            // One under a directory removed above is gone already, which `remove` allows.
            try FileSystem.remove(FileSystem.join(directory, relative))
            changed.append(relative)
        }
        for relative in directories.sorted() where !FileSystem.isDirectory(FileSystem.join(directory, relative)) {
            try FileSystem.makeDirectory(FileSystem.join(directory, relative))
            changed.append(relative + "/")
        }
        let sizes = Dictionary(tree.files, uniquingKeysWith: { first, _ in first })
        var scratch = [UInt8](repeating: 0, count: files.map(\.bytes.count).max() ?? 0)
        for file in files {
            let path = FileSystem.join(directory, file.path)
            if let size = sizes[file.path], size == file.bytes.count, try Self.holds(path, file.bytes, scratch: &scratch) { continue }
            let open = try OpenFile(path: path, writable: true, create: true)
            try open.truncate(to: Int64(file.bytes.count))
            try open.write(file.bytes, at: 0)
            changed.append(file.path)
        }
        return changed.sorted()
    }

    /// Writes the image into `directory`, which must not exist or be empty.
    package func write(into directory: String) throws {
        try FileSystem.makeDirectory(directory)
        try restore(into: directory)
    }

    /// Whether the file at `path`, whose size is `expected.count`, holds exactly `expected`.
    private static func holds(_ path: String, _ expected: [UInt8], scratch: inout [UInt8]) throws -> Bool {
        guard !expected.isEmpty else { return true }
        let file = try OpenFile(path: path, writable: false)
        return try scratch.withUnsafeMutableBytes { buffer in
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<expected.count])
            try file.read(into: slice, at: 0)
            return expected.withUnsafeBytes { $0.hasSameBytes(as: UnsafeRawBufferPointer(slice)) }
        }
    }

    /// The regular files (relative path and size) and directories below `root`. Anything else
    /// (a link, a socket) counts as a file, so that `restore` removes it. The lock file is left out.
    private static func walk(_ root: String) throws -> (files: [(String, Int)], directories: [String]) {
        var files: [(String, Int)] = []
        var directories: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            for name in try FileSystem.list(relative.isEmpty ? root : FileSystem.join(root, relative)) {
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(FileSystem.join(root, child), &info) == 0 else {
                    throw StorageError.io(operation: "lstat", path: FileSystem.join(root, child), errno: errno)
                }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    directories.append(child)
                    pending.append(child)
                } else if child != lockFile {
                    files.append((child, (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : -1))
                }
            }
        }
        return (files, directories)
    }

    /// The store's write lock (`<store>/.lock`, FORMAT.md §1): empty, and created by every open.
    static let lockFile = ".lock"
}
