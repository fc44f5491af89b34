import ArgumentParser
import Foundation
import RecordLog

/// Appends events to a store, durably, and reads them back: the engine end to end.
@main
struct RecordLogDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordlog-demo",
        abstract: "Append events to a RecordLog store and read them back.",
        discussion: """
            Each run appends --events notes to the zone "demo" in batches of --batch-size, each batch one \
            durable commit (fdatasync), then prints the zone's segments and the last events. Run it twice: \
            offsets continue where the last run stopped.
            """)

    @Option(help: "The store directory (default: $RECORDLOG_STORE, else ./recordlog-demo-store).")
    var store: String = ProcessInfo.processInfo.environment["RECORDLOG_STORE"] ?? "recordlog-demo-store"

    @Option(help: "How many events to append.")
    var events: Int = 1000

    @Option(help: "Events per commit.")
    var batchSize: Int = 100

    @Option(help: "Roll the zone's segment when it would grow past this many bytes (default: the log's, 64 MiB).")
    var segmentBytes: Int?

    @Option(help: "Wait up to this many seconds for another writer to close the store (default: 0, fail at once).")
    var lockTimeout: Double = 0

    @Option(help: "Append each acknowledged (durable) commit's offsets to this file, a line \"<first> <end>\" each.")
    var acknowledgements: String?

    func validate() throws {
        guard events >= 0, batchSize > 0 else { throw ValidationError("--events must be ≥ 0 and --batch-size > 0") }
        guard lockTimeout >= 0 else { throw ValidationError("--lock-timeout must be ≥ 0") }
        if let segmentBytes, segmentBytes <= 0 { throw ValidationError("--segment-bytes must be > 0") }
    }

    func run() async throws {
        let log: Log
        do {
            log = try await Log.open(
                directory: store, options: segmentBytes.map { LogOptions(segmentBytes: $0) } ?? LogOptions(),
                lockTimeout: .milliseconds(Int64(lockTimeout * 1000)))
        } catch let error as LogError {
            FileHandle.standardError.write(Data("recordlog-demo: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let zone = try log.createPartition(named: "demo")
        let first = zone.endOffset
        let acknowledged = try acknowledgements.map { path in
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        var remaining = events
        while remaining > 0 {
            var batch = RecordBatchBuilder()
            for _ in 0..<min(batchSize, remaining) {
                let number = first + Int64(events - remaining)
                batch.append(
                    key: "note-\(number)", value: Array("Note \(number): remember the milk, the eggs and the bread.".utf8),
                    headers: [LogHeader(key: "event", string: "save"), LogHeader(key: "recordType", string: "Note")])
                remaining -= 1
            }
            let offsets = try await zone.append(batch)
            acknowledged?.write(Data("\(offsets.lowerBound) \(offsets.upperBound)\n".utf8))
        }
        print("store \(store): zone \"demo\" offsets \(zone.startOffset)..<\(zone.endOffset) (appended \(events))")
        for segment in zone.segments {
            print("  \(segment.path)  offsets \(segment.baseOffset)..<\(segment.nextOffset)  \(segment.size) bytes")
        }
        for record in try zone.records(from: max(zone.startOffset, zone.endOffset - 3)) {
            let value = record.value.map { String(decoding: $0, as: UTF8.self) } ?? "<tombstone>"
            print("  #\(record.offset) \(record.keyString ?? "-"): \(value)")
        }
        try log.close()
    }
}
