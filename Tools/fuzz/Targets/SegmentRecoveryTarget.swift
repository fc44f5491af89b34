import Foundation
import RecordLog
import StorageKit

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
        return walk("") ? template : nil
    }()

    /// The store every input is tried on: one directory for the whole run, put back to the
    /// template before each input.
    private static let store = Scratch.directory + "/segment-store"

    private static var options: LogOptions {
        var options = LogOptions(durability: .noSyncUnsafe)
        options.preallocationBytes = 0
        return options
    }

    static func run(_ input: [UInt8]) {
        let store = write(input)
        if openAndRead(store) { return }
        do {
            _ = try Log.repair(directory: store, options: options, logger: Scratch.silent)
        } catch {
            require(false, "Log.repair failed on a store whose open refused its segment: \(error)")
        }
        require(openAndRead(store), "a store still does not open after Log.repair")
    }

    static func accepts(_ input: [UInt8]) -> Bool { openAndRead(write(input)) }

    /// The store put back to the template, its segment holding `input`. Each template file is
    /// rewritten in place and anything else (index files, checkpoints, `lost+found/` a repair
    /// made) removed: the same store as a fresh copy, at a fraction of a copy's system calls
    /// (a copy and a removal of the tree took a third of each execution).
    private static func write(_ input: [UInt8]) -> String {
        guard let template else { fatalError("fuzz: cannot make the template store under \(Scratch.directory)") }
        do {
            try removeAllBut(template, under: "")
            for directory in template.directories { try FileSystem.makeDirectory(store + directory) }
            for (path, bytes) in template.files {
                let file = try OpenFile(path: store + path, writable: true, create: true)
                let content = path == template.segment ? input : bytes
                try file.truncate(to: 0)
                try file.write(content, at: 0)
            }
        } catch {
            fatalError("fuzz: cannot write the store under \(Scratch.directory): \(error)")
        }
        return store
    }

    /// Removes what lies under `relative` in the store and is not in the template.
    private static func removeAllBut(_ template: Template, under relative: String) throws {
        guard FileSystem.isDirectory(store + relative) else {
            try FileSystem.makeDirectory(store + relative)
            return
        }
        for name in try FileSystem.list(store + relative) {
            let path = relative + "/" + name
            if template.directories.contains(path), FileSystem.isDirectory(store + path) {
                try removeAllBut(template, under: path)
            } else if template.files[path] == nil || FileSystem.isDirectory(store + path) {
                if FileSystem.isDirectory(store + path) { try FileSystem.removeTree(store + path) } else { try FileSystem.remove(store + path) }
            }
        }
    }

    /// Opens the store for writing, reads every record and closes it; false when the open
    /// refuses the store.
    private static func openAndRead(_ store: String) -> Bool {
        guard let log = try? Log(directory: store, options: options, logger: Scratch.silent) else { return false }
        defer { try? log.close() }
        if let partition = try? log.partition(named: partitionName) { _ = try? partition.records(from: 0) }
        return true
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
