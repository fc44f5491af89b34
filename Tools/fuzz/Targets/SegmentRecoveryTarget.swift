import Foundation
import RecordLog
import StorageKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A segment file as a writer's open meets it after a crash: the input is the only segment of a
/// partition with nothing marked durable, so recovery validates every batch, judges the first
/// invalid bytes (torn tail, preallocated zeros, or damage) and cuts or refuses. When the open
/// refuses, `Log.repair` must leave a store that opens: a user told to repair is never stuck.
enum SegmentRecoveryTarget {
    static let partitionName = "Fuzz"

    /// A store kept in memory: its directories, and its files with their bytes (paths relative
    /// to the store), the segment among them.
    private struct Template {
        var directories: [String] = []
        var files: [String: [UInt8]] = [:]
        var segment: String
        /// A copy of each file that the library never writes in place, outside the store: the
        /// reset links it back into the store (see `write`). By the file's path in the store.
        var pristine: [String: (path: String, inode: UInt64)] = [:]
    }

    /// The template's files that the library writes in place: the segment (recovery and repair
    /// cut it) and the durable-end mark (written through a shared mapping, and by repair). Every
    /// other file of a store is only ever replaced — a temporary file renamed over it
    /// (`FileSystem.writeAtomically`: the recovery checkpoint, index files, `recordlog.meta`,
    /// `zone.name`) — or removed (`Log.repair`), or, the lock file, opened and never written.
    private static func writtenInPlace(_ path: String, of template: Template) -> Bool {
        path == template.segment || path.hasSuffix("/durable-end")
    }

    /// A store with one empty partition, made once.
    private static let template: Template? = {
        let store = Scratch.freshDirectory("segment-template")
        defer { try? FileSystem.removeTree(store) }
        guard let log = try? Log(directory: store, options: options, logger: Scratch.silent),
            (try? log.createPartition(named: partitionName)) != nil, (try? log.close()) != nil,
            let segment = Scratch.firstFile(under: store, endingWith: ".log")
        else { return nil }
        var template = Template(segment: String(segment.dropFirst(store.count)))
        func walk(_ relative: String) -> Bool {
            guard let names = try? FileSystem.list(store + relative) else { return false }
            for name in names {
                let path = relative + "/" + name
                if FileSystem.isDirectory(store + path) {
                    template.directories.append(path)
                    guard walk(path) else { return false }
                } else {
                    guard let bytes = try? FileSystem.readAll(store + path) else { return false }
                    template.files[path] = bytes
                }
            }
            return true
        }
        guard walk("") else { return nil }
        let pristine = Scratch.freshDirectory("segment-pristine")
        for (index, (path, bytes)) in template.files.sorted(by: { $0.key < $1.key }).enumerated() where !writtenInPlace(path, of: template) {
            template.pristine[path] = (Scratch.write(bytes, to: "segment-pristine/\(index)"), 0)
        }
        guard let copies = try? entries(pristine) ?? [] else { return nil }
        for (path, copy) in template.pristine {
            guard let entry = copies.first(where: { pristine + "/" + $0.name == copy.path }) else { return nil }
            template.pristine[path]?.inode = entry.inode
        }
        return template
    }()

    /// The store every input is tried on: one directory for the whole run, put back to the
    /// template before each input.
    private static let store = Scratch.directory + "/segment-store"

    /// How many times the store was put back (the pristine copies are checked every
    /// `pristineCheckInterval`).
    private static let resets = LockedValue(0)
    private static let pristineCheckInterval = 4096

    private static var options: LogOptions {
        var options = LogOptions(durability: .noSyncUnsafe)
        options.preallocationBytes = 0
        return options
    }

    static func run(_ input: [UInt8]) {
        let store = write(input)
        if openAndRead(store) { return }
        do {
            _ = try retryingWhileLocked { try Log.repair(directory: store, options: options, logger: Scratch.silent) }
        } catch {
            require(false, "Log.repair failed on a store whose open refused its segment: \(error)")
        }
        if let error = openError(store) { require(false, "a store still does not open after Log.repair: \(error)") }
    }

    static func accepts(_ input: [UInt8]) -> Bool { openAndRead(write(input)) }

    /// The store put back to the template, its segment holding `input`: the same store as a
    /// fresh copy, at a fraction of a copy's system calls. Each directory is listed once (the
    /// entries' types and inodes come with the listing) and anything not in the template
    /// removed (index files a repair left out, `lost+found/`, temporary files); the files the
    /// library writes in place are rewritten; any other template file is checked by its inode:
    /// still the pristine copy's (a hard link to it) means untouched, since the library only
    /// replaces or removes such a file; otherwise the copy is linked back in its place. The
    /// copies are compared with the template's bytes every `pristineCheckInterval` resets, so a
    /// library that began to write one of them in place is reported, not silently kept.
    private static func write(_ input: [UInt8]) -> String {
        guard let template else { fatalError("fuzz: cannot make the template store under \(Scratch.directory)") }
        do {
            if resets.withLock({ count in count += 1; return count % pristineCheckInterval == 0 }) { try checkPristine(template) }
            var found: [String: UInt64] = [:]
            var directories: Set<String> = [""]
            try reconcile("", template, found: &found, directories: &directories)
            for directory in template.directories where !directories.contains(directory) {
                try FileSystem.makeDirectory(store + directory)
            }
            for (path, bytes) in template.files {
                if let pristine = template.pristine[path] {
                    guard found[path] != pristine.inode else { continue }
                    if found[path] != nil { try FileSystem.remove(store + path) }
                    try FileSystem.retrying("link", pristine.path) { link(pristine.path, store + path) }
                } else {
                    let file = try OpenFile(path: store + path, writable: true, create: true)
                    try file.truncate(to: 0)
                    try file.write(path == template.segment ? input : bytes, at: 0)
                }
            }
        } catch {
            fatalError("fuzz: cannot write the store under \(Scratch.directory): \(error)")
        }
        return store
    }

    /// Removes what lies under `relative` in the store and is not in the template; notes the
    /// inode of each template file and each template directory found.
    private static func reconcile(
        _ relative: String, _ template: Template, found: inout [String: UInt64], directories: inout Set<String>
    ) throws {
        guard let listed = try entries(store + relative) else {
            // The store itself, before the first input.
            try FileSystem.makeDirectory(store + relative)
            return
        }
        for entry in listed {
            let path = relative + "/" + entry.name
            let isDirectory = entry.isDirectory ?? FileSystem.isDirectory(store + path)
            if isDirectory, template.directories.contains(path) {
                directories.insert(path)
                try reconcile(path, template, found: &found, directories: &directories)
            } else if !isDirectory, template.files[path] != nil {
                found[path] = entry.inode
            } else if isDirectory {
                try FileSystem.removeTree(store + path)
            } else {
                try FileSystem.remove(store + path)
            }
        }
    }

    /// The names in a directory with their inodes and whether each is a directory (nil when
    /// the file system does not say: the caller then asks `stat`), in one listing; nil when
    /// the directory does not exist.
    private static func entries(_ directory: String) throws -> [(name: String, inode: UInt64, isDirectory: Bool?)]? {
        guard let handle = opendir(directory) else {
            if errno == ENOENT { return nil }
            throw StorageError.io(operation: "opendir", path: directory, errno: errno)
        }
        defer { closedir(handle) }
        var entries: [(name: String, inode: UInt64, isDirectory: Bool?)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let type = Int(entry.pointee.d_type)
            entries.append((name, UInt64(entry.pointee.d_ino), type == Int(DT_UNKNOWN) ? nil : type == Int(DT_DIR)))
        }
        return entries
    }

    /// Stops the run when a pristine copy no longer holds the template's bytes: the library
    /// wrote in place a file it should only replace, and the resets would no longer give every
    /// input the same store.
    private static func checkPristine(_ template: Template) throws {
        for (path, copy) in template.pristine where try FileSystem.readAll(copy.path) != template.files[path] {
            fatalError("fuzz: \(path) was written in place (its pristine copy changed); the store reset relies on it never being so")
        }
    }

    /// Opens the store for writing, reads every record and closes it; false when the open
    /// refuses the store.
    private static func openAndRead(_ store: String) -> Bool { openError(store) == nil }

    /// Runs `body` again while it finds the store's lock held. No input causes that (the lock
    /// file is the template's, and this process closes every store it opens), but a process that
    /// spawns children does: between its fork and its exec a child holds every open file of its
    /// parent, the lock's among them, so an open right after a close finds the lock held for a
    /// moment. `FuzzRegressionTests` replays the inputs beside suites that spawn writer
    /// processes, where a coverage run met exactly that.
    private static func retryingWhileLocked<T>(_ body: () throws -> T) throws -> T {
        var attempts = 0
        while true {
            do {
                return try body()
            } catch LogError.locked where attempts < 100_000 {
                attempts += 1
                sched_yield()
            }
        }
    }

    /// Why the store does not open for writing; nil when it opens (its partition is then read
    /// whole, whatever the read finds).
    private static func openError(_ store: String) -> (any Error)? {
        let log: Log
        do { log = try retryingWhileLocked { try Log(directory: store, options: options, logger: Scratch.silent) } } catch { return error }
        defer { try? log.close() }
        if let partition = try? log.partition(named: partitionName) { _ = try? partition.records(from: 0) }
        return nil
    }

    static func seeds() async throws -> [(name: String, bytes: [UInt8])] {
        let store = Scratch.freshDirectory("segment-seeds")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let log = try Log(directory: store, options: options, logger: Scratch.silent)
        _ = try log.createPartition(named: partitionName)
        for count in [1, 3, 40] {
            var builder = RecordBatchBuilder()
            for index in 0..<count {
                builder.append(key: "note-\(index)", value: Array("text \(index)".utf8), headers: [LogHeader(key: "event", string: "save")])
            }
            _ = try await log.append(builder, to: partitionName)
        }
        try log.close()
        guard let segment = Scratch.firstFile(under: store, endingWith: ".log") else { return [] }
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        return [
            ("three-batches", whole),
            ("torn-tail", Array(whole.dropLast(7))),
            ("preallocated-zeros", whole + [UInt8](repeating: 0, count: 4096)),
        ]
    }
}
