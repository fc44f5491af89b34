import Foundation
import LogInspection
import RecordLog
import RecordStore
import Testing

/// A temporary record store with a zone "Items" whose events the tests know by offset:
///
/// | offset | event |
/// |---:|---|
/// | 0 | save a: title "one", count 1, old "x" |
/// | 1 | save b: every field type |
/// | 2 | save a: title "two", count 1, flag true (old removed) |
/// | 3 | delete b |
/// | 4, 5 | one commit: save c, save d |
///
/// Each commit is stamped at least 3 ms after the one before.
struct ItemsStore {
    static let zone = ZoneID(zoneName: "Items")
    let database: Database
    /// The timestamp of the event at each offset of Items.
    let timestamps: [Int64]

    static func make() async throws -> ItemsStore {
        // Durable commits: a reader beside the open database sees what is durable (FORMAT.md §7.2).
        let database = try await Database.temporary(durability: .fsync)
        try await database.createZone(zone)
        var a = record("a")
        a["title"] = .string("one")
        a["count"] = .int64(1)
        a["old"] = .string("x")
        a = try await pause { try await database.save(a) }
        _ = try await pause { try await database.save(everyType()) }
        a["title"] = .string("two")
        a["flag"] = .bool(true)
        a["old"] = nil
        _ = try await pause { try await database.save(a) }
        try await pause { try await database.delete(RecordID(recordName: "b", zoneID: zone)) }
        _ = try await pause { try await database.modifyRecords(saving: [record("c"), record("d")], deleting: []) }
        let store = try ReplayStore(directory: try #require(database.directory))
        defer { store.close() }
        let timestamps = try store.log.partition(named: zone.zoneName).records(from: 0).map(\.timestamp)
        return ItemsStore(database: database, timestamps: timestamps)
    }

    static func record(_ name: String) -> Record {
        Record(recordType: "Item", recordID: RecordID(recordName: name, zoneID: zone))
    }

    /// A record with one field of every type.
    static func everyType() -> Record {
        var record = record("b")
        record["text"] = .string("héllo\n\"quoted\"")
        record["number"] = .int64(-42)
        record["ratio"] = .double(1.0)
        record["yes"] = .bool(false)
        record["when"] = .date(Date(timeIntervalSince1970: 1_714_564_800.25))
        record["blob"] = .bytes([0, 1, 254, 255])
        record["link"] = .reference(Reference(recordID: RecordID(recordName: "a", zoneID: zone), action: .none))
        record["place"] = .location(Location(latitude: 48.5, longitude: -2.25))
        record["tags"] = .list([.string("x"), .string("y")])
        return record
    }

    /// Runs `body`, then waits a few milliseconds so the next commit has a later timestamp.
    static func pause<Value>(_ body: () async throws -> Value) async throws -> Value {
        let value = try await body()
        try await Task.sleep(for: .milliseconds(3))
        return value
    }

    /// Runs `body` with a fresh Items store, opened for replay, and removes it after.
    static func with(_ body: (ItemsStore, ReplayStore) async throws -> Void) async throws {
        let items = try await make()
        let store = try items.open()
        defer {
            store.close()
            try? items.remove()
        }
        try await body(items, store)
    }

    func open() throws -> ReplayStore {
        try ReplayStore(directory: try #require(database.directory))
    }

    func remove() throws {
        try database.removeTemporaryDirectory()
    }
}

extension ReplayState {
    /// `name: title` of each live record, for short expectations.
    var summary: [String] {
        records.map { live in
            if case .string(let title)? = live.record["title"] { return "\(live.recordName): \(title)" }
            return live.recordName
        }
    }
}

/// A fresh path under the temporary directory that does not exist yet.
func temporaryPath(_ label: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(label)-\(UUID().uuidString)").path
}
