#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a power cut would leave on the disk: records the file operations under a directory and,
/// after the cut, puts every file and directory entry back to what the last syncs made durable.
///
/// The model is POSIX's, strictly (LevelDB's fault-injection environment works the same way):
/// - bytes written to a file since its last `fdatasync` are lost: the ranges written are zeroed
///   (what a preallocated region held) and the file is cut back to its size at that sync —
///   or, with ``Outcome/zeroedKeepingSize``, keeps its size as if the metadata had reached the
///   disk and the data not;
/// - a small file (≤ 4 KiB: marks, meta files) gets back its whole content at its last sync,
///   which also covers changes made through a shared mapping that no write call shows;
/// - a creation, rename or removal since the last `fsync` of its directory is undone: a created
///   file or directory disappears, a renamed one returns to its old name (and the file it
///   replaced comes back), a removed one returns (a removed directory is made again).
///
/// Truncations are taken as durable at once, an optimistic simplification (recovery's own
/// truncations only cut what it already judged invalid).
package final class PowerLossJournal: Sendable {
    /// How unsynced data is lost.
    package enum Outcome: Sendable, CaseIterable {
        /// Files are cut back to their size at their last sync; unsynced ranges below it read as zeros.
        case cutToSyncedSize
        /// Files keep their size; every unsynced range reads as zeros.
        case zeroedKeepingSize
    }

    private struct FileRecord {
        var syncedSize: Int64
        var unsynced: [(position: Int64, count: Int)] = []
        /// A small file's whole content at its last sync.
        var syncedContent: [UInt8]?
    }

    private enum EntryChange {
        case created(path: String, directory: Bool)
        case renamed(from: String, to: String, replaced: (shadow: String, record: FileRecord?)?)
        case removed(path: String, shadow: String, record: FileRecord?)
        case removedDirectory(path: String)

        var directories: Set<String> {
            switch self {
            case .created(let path, _), .removed(let path, _, _), .removedDirectory(let path): [PowerLossJournal.parent(of: path)]
            case .renamed(let from, let to, _): [PowerLossJournal.parent(of: from), PowerLossJournal.parent(of: to)]
            }
        }
    }

    private struct PendingEntry {
        var change: EntryChange
        var unsyncedDirectories: Set<String>
    }

    private struct State {
        var files: [String: FileRecord] = [:]
        var entries: [PendingEntry] = []
        var shadows = 0
    }

    private static let smallFileBytes: Int64 = 4096

    /// Where replaced and removed files are kept (hard links) until the simulation: a directory
    /// outside the root, on the same file system.
    package let shadowDirectory: String
    /// The directory the journal records under.
    package let root: String
    private let state = LockedValue(State())

    /// Starts recording: every file under `root` as it is now counts as durable.
    package init(root: String, shadowDirectory: String) {
        self.shadowDirectory = shadowDirectory
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        mkdir(shadowDirectory, 0o700)
        var files: [String: FileRecord] = [:]
        Self.walk(root) { path in
            let size = Self.size(of: path) ?? 0
            files[path] = FileRecord(syncedSize: size, syncedContent: size <= Self.smallFileBytes ? Self.content(of: path) : nil)
        }
        state.withLock { $0.files = files }
    }

    /// How many recorded changes a power cut now would lose: unsynced file ranges and
    /// directory entries.
    package var unsyncedChangeCount: Int {
        state.withLock { state in
            state.files.values.reduce(state.entries.count) { $0 + $1.unsynced.count }
        }
    }

    /// What a power cut now would lose, one line per change, for a failure's report.
    package var unsyncedChanges: [String] {
        state.withLock { state in
            state.entries.map { entry in
                switch entry.change {
                case .created(let path, let directory): "created \(directory ? "directory" : "file") \(path)"
                case .renamed(let from, let to, _): "renamed \(from) to \(to)"
                case .removed(let path, _, _): "removed \(path)"
                case .removedDirectory(let path): "removed directory \(path)"
                }
            } + state.files.filter { !$0.value.unsynced.isEmpty }.sorted { $0.key < $1.key }.map { path, record in
                "\(record.unsynced.count) unsynced writes to \(path) (synced size \(record.syncedSize))"
            }
        }
    }

    func willPerform(_ operation: FileOperation) {
        state.withLock { state in
            switch operation {
            case .create(let path, let directory):
                // The root itself is taken as there: the journal simulates the loss of what is
                // under it, and its parent's fsync is outside what a plan may watch.
                guard path != root, !Self.exists(path) else { return }
                add(.created(path: path, directory: directory), &state)
                if !directory { state.files[path] = FileRecord(syncedSize: 0, syncedContent: []) }
            case .rename(let from, let to):
                var replaced: (String, FileRecord?)?
                if Self.exists(to), let shadow = keepShadow(of: to, &state) { replaced = (shadow, state.files[to]) }
                add(.renamed(from: from, to: to, replaced: replaced), &state)
            case .remove(let path):
                if Self.isDirectory(path) {
                    add(.removedDirectory(path: path), &state)
                    return
                }
                guard Self.exists(path), let shadow = keepShadow(of: path, &state) else { return }
                add(.removed(path: path, shadow: shadow, record: state.files[path]), &state)
            case .write(let path, _, _):
                if state.files[path] == nil { state.files[path] = FileRecord(syncedSize: Self.size(of: path) ?? 0) }
            case .sync, .truncate, .syncDirectory:
                return
            }
        }
    }

    func didPerform(_ operation: FileOperation) {
        state.withLock { state in
            switch operation {
            case .write(let path, let position, let count):
                state.files[path, default: FileRecord(syncedSize: 0)].unsynced.append((position, count))
            case .sync(let path):
                let size = Self.size(of: path) ?? 0
                state.files[path] = FileRecord(syncedSize: size, syncedContent: size <= Self.smallFileBytes ? Self.content(of: path) : nil)
            case .rename(let from, let to):
                Self.move(&state.files, from: from, to: to)
            case .remove(let path):
                state.files[path] = nil
            case .syncDirectory(let directory):
                for index in state.entries.indices { state.entries[index].unsyncedDirectories.remove(directory) }
                state.entries.removeAll { $0.unsyncedDirectories.isEmpty }
            case .truncate(let path, let size):
                guard var record = state.files[path] else { return }
                record.syncedSize = min(record.syncedSize, size)
                state.files[path] = record
            case .create:
                return
            }
        }
    }

    /// Puts the files under the root back to what the disk would hold after a power cut now.
    /// Call it once the writer is gone (closed, or its plan cut the power) and before reopening.
    package func simulatePowerLoss(_ outcome: Outcome) {
        state.withLock { state in
            for entry in state.entries.reversed() {
                switch entry.change {
                case .created(let path, let directory):
                    if directory { Self.removeTree(path) } else { unlink(path) }
                    state.files = state.files.filter { $0.key != path && !$0.key.hasPrefix(path + "/") }
                case .renamed(let from, let to, let replaced):
                    rename(to, from)
                    Self.move(&state.files, from: to, to: from)
                    if let replaced {
                        link(replaced.shadow, to)
                        state.files[to] = replaced.record
                    }
                case .removed(let path, let shadow, let record):
                    link(shadow, path)
                    state.files[path] = record
                case .removedDirectory(let path):
                    mkdir(path, 0o700)
                }
            }
            state.entries = []
            for (path, record) in state.files where Self.exists(path) {
                Self.restore(path, record, outcome)
            }
            state.files = [:]
            Self.removeTree(shadowDirectory)
        }
    }

    /// Moves the record of the file at `from` — or of every file under it, for a directory —
    /// to its new path.
    private static func move(_ files: inout [String: FileRecord], from: String, to: String) {
        for key in files.keys where key == from || key.hasPrefix(from + "/") {
            let record = files.removeValue(forKey: key)
            files[to + key.dropFirst(from.count)] = record
        }
    }

    private func add(_ change: EntryChange, _ state: inout State) {
        state.entries.append(PendingEntry(change: change, unsyncedDirectories: change.directories))
    }

    /// Hard-links `path` into the shadow directory; returns the shadow's path.
    private func keepShadow(of path: String, _ state: inout State) -> String? {
        state.shadows += 1
        let shadow = shadowDirectory + "/\(state.shadows)"
        return link(path, shadow) == 0 ? shadow : nil
    }

    private static func restore(_ path: String, _ record: FileRecord, _ outcome: Outcome) {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        if let content = record.syncedContent {
            _ = content.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            _ = ftruncate(descriptor, off_t(content.count))
            return
        }
        let size = Self.size(of: path) ?? 0
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        for range in record.unsynced {
            var position = range.position
            let end = min(range.position + Int64(range.count), size)
            while position < end {
                let count = Int(min(end - position, Int64(zeros.count)))
                _ = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(position)) }
                position += Int64(count)
            }
        }
        if outcome == .cutToSyncedSize, size > record.syncedSize {
            _ = ftruncate(descriptor, off_t(record.syncedSize))
        }
    }

    static func parent(of path: String) -> String { FileSystem.parent(of: path) }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func content(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Int(smallFileBytes))
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? Array(bytes.prefix(count)) : nil
    }

    private static func children(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(directory + "/" + name) }
        }
        return names
    }

    /// Calls `body` with every regular file under `directory`.
    private static func walk(_ directory: String, _ body: (String) -> Void) {
        for child in children(of: directory) {
            if isDirectory(child) { walk(child, body) } else { body(child) }
        }
    }

    private static func removeTree(_ path: String) {
        if isDirectory(path) {
            for child in children(of: path) { removeTree(child) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
