import Foundation
import Testing
@testable import RecordLog
import TestSupport

/// Runs `body` with a fresh, empty directory that is removed afterwards (tests run in parallel).
func withTemporaryDirectory<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> R
) async throws -> R {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("RecordLogTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url.path)
}

/// Runs `body` with the path of a store directory that does not exist yet, inside a temporary directory.
func withStorePath<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: (String) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { try await body($0 + "/store") }
}

/// Options for tests where durability is not the point.
func fastOptions(segmentBytes: Int = 64 << 20, indexIntervalBytes: Int = 4096, readOnly: Bool = false) -> LogOptions {
    LogOptions(readOnly: readOnly, durability: .noSyncUnsafe, segmentBytes: segmentBytes, indexIntervalBytes: indexIntervalBytes)
}

/// One event as written, for comparing with what is read back.
struct Event: Sendable, Equatable, CustomStringConvertible {
    var key: [UInt8]?
    var value: [UInt8]?
    var headers: [LogHeader] = []
    var timestamp: Int64

    var description: String { "Event(key: \(key.map { String(decoding: $0, as: UTF8.self) } ?? "nil"), \(value?.count ?? -1) bytes, t=\(timestamp))" }
}

extension RecordBatchBuilder {
    init(_ events: some Sequence<Event>) {
        self.init()
        for event in events { append(key: event.key, value: event.value, headers: event.headers, timestamp: event.timestamp) }
    }
}

extension LogRecord {
    var event: Event {
        Event(key: key.map(Array.init), value: value.map(Array.init), headers: headers, timestamp: timestamp)
    }
}

enum Sample {
    static let baseTime: Int64 = 1_700_000_000_000

    /// Varied events: headers on some, a tombstone every 7th, a null key every 11th, an empty value
    /// every 13th, values with pseudo-random text so that LZ4 does not shrink them to nothing.
    static func events(_ range: Range<Int>, valueBytes: Int = 40, timestamp: (Int) -> Int64 = { baseTime + Int64($0) * 10 })
        -> [Event]
    {
        range.map { index in
            var random = SeededGenerator(seed: UInt64(index) &* 7919 &+ 17)
            let text = (0..<valueBytes).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789 ".randomElement(using: &random)! }
            var event = Event(key: Array("key-\(index)".utf8), value: Array(String(text).utf8), timestamp: timestamp(index))
            if index % 3 == 0 { event.headers = [LogHeader(key: "type", string: "Note"), LogHeader(key: "n", value: nil)] }
            if index % 7 == 6 { event.value = nil }
            if index % 11 == 10 { event.key = nil }
            if index % 13 == 12 { event.value = [] }
            return event
        }
    }
}

extension Partition {
    /// Appends `events` in batches of `batchSize`, returning each batch's offsets.
    @discardableResult
    func append(_ events: [Event], batchSize: Int) async throws -> [Range<Int64>] {
        var ranges: [Range<Int64>] = []
        for start in stride(from: 0, to: events.count, by: batchSize) {
            ranges.append(try await append(RecordBatchBuilder(events[start..<min(start + batchSize, events.count)])))
        }
        return ranges
    }

    /// Every record from `offset` on, as events.
    func events(from offset: Int64 = 0) throws -> [Event] {
        try records(from: offset).map(\.event)
    }
}

/// Opens a store, creates zone "Notes", appends `events` in batches of `batchSize` and closes it.
func makeStore(
    at path: String, options: LogOptions, events: [Event], batchSize: Int, zone: String = "Notes"
) async throws {
    let log = try Log(directory: path, options: options)
    try await log.createPartition(named: zone).append(events, batchSize: batchSize)
    try log.close()
}

/// A store whose writer died: its events' batches up to the last `unsynced` events were made
/// durable (synced), the rest written without a sync, and the log never closed — as a process
/// killed right after writing them. `options` must be `.noSyncUnsafe` (`fastOptions()`). The
/// active segment keeps the zeros preallocated ahead of the appends.
func makeCrashedStore(
    at path: String, options: LogOptions, events: [Event], batchSize: Int, unsynced: Int, zone: String = "Notes"
) async throws {
    let log = try Log(directory: path, options: options)
    let partition = try log.createPartition(named: zone)
    _ = try await partition.append(Array(events.dropLast(unsynced)), batchSize: batchSize)
    try log.sync()
    _ = try await partition.append(Array(events.suffix(unsynced)), batchSize: batchSize)
    // No close: the write lock goes with the last reference, as it goes with a killed process.
}

/// The path of zone "Notes"'s partition directory in a store.
func partitionDirectory(_ store: String, zone: String = "Notes") throws -> String {
    store + "/zones/" + (try ZoneDirectoryName.encode(zone))
}

func readBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The names in a directory, sorted.
func listDirectory(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
}

/// The whole batches of a segment file, walked with `RecordBatch(bytes:)`.
func walkBatches(_ bytes: [UInt8]) throws -> [RecordBatch] {
    var batches: [RecordBatch] = []
    var position = 0
    // The active segment of an open log ends with preallocated zeros.
    while position < bytes.count, !bytes[position...].allSatisfy({ $0 == 0 }) {
        let batch = try RecordBatch(bytes: bytes[position...])
        batches.append(batch)
        position += batch.header.totalSize
    }
    return batches
}

/// Flips bit `bit` of byte `index`.
func flipping(_ bytes: [UInt8], byte index: Int, bit: Int = 0) -> [UInt8] {
    var copy = bytes
    copy[index] ^= UInt8(1) << UInt8(bit)
    return copy
}

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
