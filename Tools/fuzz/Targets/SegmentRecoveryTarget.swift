import Foundation
import RecordLog

/// A segment file as a writer's open meets it after a crash: the input is the only segment of a
/// partition with nothing marked durable, so recovery validates every batch, judges the first
/// invalid bytes (torn tail, preallocated zeros, or damage) and cuts or refuses. When the open
/// refuses, `Log.repair` must leave a store that opens: a user told to repair is never stuck.
enum SegmentRecoveryTarget {
    static let partitionName = "Fuzz"

    /// A store with one empty partition, made once; each input is tried on a copy.
    private static let template: (store: String, segment: String)? = {
        let store = Scratch.freshDirectory("segment-template")
        guard let log = try? Log(directory: store, options: options, logger: Scratch.silent),
            (try? log.createPartition(named: partitionName)) != nil, (try? log.close()) != nil,
            let segment = Scratch.firstFile(under: store, endingWith: ".log")
        else { return nil }
        return (store, String(segment.dropFirst(store.count)))
    }()

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

    /// A copy of the template store whose segment holds `input`.
    private static func write(_ input: [UInt8]) -> String {
        guard let template else { fatalError("fuzz: cannot make the template store under \(Scratch.directory)") }
        let store = Scratch.directory + "/segment-store"
        try? FileManager.default.removeItem(atPath: store)
        guard (try? FileManager.default.copyItem(atPath: template.store, toPath: store)) != nil,
            FileManager.default.createFile(atPath: store + template.segment, contents: Data(input))
        else { fatalError("fuzz: cannot write the store under \(Scratch.directory)") }
        return store
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
