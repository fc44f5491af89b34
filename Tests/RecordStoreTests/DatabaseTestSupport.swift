import Foundation
import RecordLog
@testable import RecordStore
import Testing
import TestSupport
// StoreKind, TestCluster and openTemporaryDatabase, shared with RecordSync's and RecordServer's suites.
@_exported import StoreKindSupport

/// Runs `body` with a new temporary database of `kind` and removes it afterwards (its directory,
/// for files), whether `body` returns or throws.
func withTemporaryDatabase<T>(
    _ kind: StoreKind = .files, durability: LogOptions.Durability = .noSyncUnsafe, maximumItemsPerRequest: Int? = nil,
    _ body: (Database) async throws -> T
) async throws -> T {
    let database = try await openTemporaryDatabase(kind, durability: durability, maximumItemsPerRequest: maximumItemsPerRequest)
    do {
        let result = try await body(database)
        try database.removeTemporaryDirectory()
        return result
    } catch {
        try? database.removeTemporaryDirectory()
        throw error
    }
}

/// Runs `body` with the path of a store directory that does not exist yet, and removes it
/// afterwards: for tests that close and reopen a store, or copy one.
func withStoreDirectory(_ body: (String) async throws -> Void) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("DatabaseTests-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await body(path)
}

/// Expects `body` to throw a `RecordStoreError` with `code`, and returns the error.
@discardableResult
func expectError(
    _ code: RecordStoreError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> RecordStoreError? {
    do {
        try await body()
        Issue.record("expected \(code), but nothing was thrown. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        return nil
    } catch let error as RecordStoreError {
        #expect(error.code == code, "\(comment?.rawValue ?? "") got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected RecordStoreError \(code), got \(type(of: error)): \(error). \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error of a failed result, or nil (and an issue) when it succeeded.
func failure<Success>(_ result: Result<Success, RecordStoreError>?, sourceLocation: SourceLocation = #_sourceLocation) -> RecordStoreError? {
    switch result {
    case .failure(let error)?: return error
    case .success?:
        Issue.record("expected a failure, got a success", sourceLocation: sourceLocation)
        return nil
    case nil:
        Issue.record("expected a failure, got no result at all", sourceLocation: sourceLocation)
        return nil
    }
}

/// A record of type `type` named `name` in `zone`, with `fields`.
func makeRecord(_ name: String, zone: ZoneID = .default, type: String = "Note", _ fields: [String: FieldValue] = [:]) -> Record {
    var record = Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone))
    for (key, value) in fields { record[key] = value }
    return record
}

/// A `.deleteSelf` (or other) reference to the record `name` of `zone`.
func ref(_ name: String, zone: ZoneID = .default, _ action: Reference.Action = .deleteSelf) -> FieldValue {
    .reference(Reference(recordID: RecordID(recordName: name, zoneID: zone), action: action))
}

/// Writes `steps` random requests to `zone` (which must exist), over the records `names`: each
/// saves or deletes one to three of them, saves sometimes with a `.deleteSelf` reference to
/// another live record, so that deletes cascade. Some items fail (a reference to a record deleted
/// in the same request); the requests are not atomic.
func writeRandomHistory(
    _ database: Database, zone: ZoneID, names: [String], steps: Int, using generator: inout SeededGenerator
) async throws {
    for step in 0..<steps {
        let live = try await database.records(for: names.map { RecordID(recordName: $0, zoneID: zone) }).compactMapValues { try? $0.get() }
        var saves: [Record] = []
        var deletes: [RecordID] = []
        for name in names.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)) {
            let id = RecordID(recordName: name, zoneID: zone)
            if live[id] != nil, Bool.random(using: &generator) {
                deletes.append(id)
            } else {
                var record = live[id] ?? makeRecord(name, zone: zone, type: ["Note", "Task"].randomElement(using: &generator) ?? "Note")
                record["step"] = .int64(Int64(step))
                record["text"] = .string(String(repeating: "x", count: Int.random(in: 0..<300, using: &generator)))
                if let target = live.keys.filter({ $0 != id && !deletes.contains($0) }).randomElement(using: &generator),
                    Int.random(in: 0..<3, using: &generator) == 0
                {
                    record["parent"] = ref(target.recordName, zone: zone)
                }
                saves.append(record)
            }
        }
        _ = try await database.modifyRecords(saving: saves, deleting: deletes, atomically: false)
    }
}

/// Every byte of a store's segment files, and each partition's end offset: equal snapshots mean
/// nothing was written.
struct LogSnapshot: Equatable {
    var files: [String: [UInt8]]
    var endOffsets: [String: Int64]
}

extension Database {
    /// The end offset of a zone's partition.
    func endOffset(_ zoneID: ZoneID) throws -> Int64 {
        try log.partition(named: zoneID.zoneName).endOffset
    }

    /// The number of batches (commits) in a zone's partition from `offset` on.
    func batchCount(_ zoneID: ZoneID, from offset: Int64) throws -> Int {
        try log.partition(named: zoneID.zoneName).batches(from: offset, maxBytes: .max).count
    }

    /// The directory holding a zone's segment files.
    func zoneDirectory(_ zoneID: ZoneID) throws -> String {
        (try #require(directory) as NSString).appendingPathComponent("zones/" + (try ZoneDirectoryName.encode(zoneID.zoneName)))
    }

    /// The bytes of every segment file (`*.log`) of the store (none in memory) and every
    /// partition's end offset.
    func logSnapshot() throws -> LogSnapshot {
        var files: [String: [UInt8]] = [:]
        if let directory {
            let zones = (directory as NSString).appendingPathComponent("zones")
            let enumerator = FileManager.default.enumerator(atPath: zones)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".log") else { continue }
                let path = (zones as NSString).appendingPathComponent(relative)
                files[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        var endOffsets: [String: Int64] = [:]
        for zone in log.partitionNames { endOffsets[zone] = try log.partition(named: zone).endOffset }
        return LogSnapshot(files: files, endOffsets: endOffsets)
    }
}

/// Copies a store directory (as a backup tool, or a crash, would leave it), lock file excluded.
func copyStore(from source: String, to destination: String) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
    for item in try manager.contentsOfDirectory(atPath: source) where item != ".lock" {
        try manager.copyItem(atPath: (source as NSString).appendingPathComponent(item), toPath: (destination as NSString).appendingPathComponent(item))
    }
}
