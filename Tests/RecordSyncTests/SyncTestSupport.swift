import Foundation
import RecordStore
import RecordSync
import StoreKindSupport

/// Devices, each a real store in its own temporary directory, and a remote of any
/// ``StoreKind``: a store on files, in memory, or on PostgreSQL, as a server keeps it.
struct SyncWorld {
    let remote: Database
    var devices: [Database]
    var engines: [SyncEngine]

    static let zone = ZoneID(zoneName: "Notes")

    /// A world of `count` devices, each with the zone and an engine that syncs on demand, and a
    /// remote of `kind`.
    static func make(
        remote kind: StoreKind = .files, devices count: Int, resultsLimit: Int = 200, resolver: ConflictResolver? = nil
    ) async throws -> SyncWorld {
        let remote = try await openTemporaryDatabase(kind)
        var devices: [Database] = []
        var engines: [SyncEngine] = []
        for _ in 0..<count {
            let device = try await Database.temporary()
            try await device.createZone(zone)
            devices.append(device)
            engines.append(
                SyncEngine(
                    local: device, remote: remote,
                    configuration: .init(automaticallySync: false, resultsLimit: resultsLimit, conflictResolver: resolver)))
        }
        return SyncWorld(remote: remote, devices: devices, engines: engines)
    }

    /// Sends and fetches on every device until a whole round changes nothing.
    func syncUntilQuiet(rounds: Int = 6) async throws {
        for _ in 0..<rounds {
            for engine in engines {
                try await engine.sendChanges()
                try await engine.fetchChanges()
            }
        }
    }

    func close() throws {
        for device in devices { try device.removeTemporaryDirectory() }
        try remote.removeTemporaryDirectory()
    }
}

/// A store's app records (system records left out): name → type and fields, by zone.
func appRecords(_ database: Database, zones: [ZoneID] = [SyncWorld.zone]) async throws -> [ZoneID: [String: AppRecord]] {
    var result: [ZoneID: [String: AppRecord]] = [:]
    for zoneID in zones {
        var records: [String: AppRecord] = [:]
        var token: ServerChangeToken?
        repeat {
            let page = try await database.fetchZoneChanges(in: zoneID, since: token)
            for record in page.changedRecords where !record.recordID.recordName.hasPrefix("_") {
                records[record.recordID.recordName] = AppRecord(record)
            }
            for deletion in page.deletions { records[deletion.recordID.recordName] = nil }
            token = page.moreComing ? page.changeToken : nil
        } while token != nil
        result[zoneID] = records
    }
    return result
}

/// What the app sees of a record: its type and fields.
struct AppRecord: Equatable, CustomStringConvertible {
    var type: String
    var fields: [String: FieldValue]

    init(_ record: Record) {
        type = record.recordType
        fields = Dictionary(uniqueKeysWithValues: record.allKeys().compactMap { key in record[key].map { (key, $0) } })
    }

    var description: String { "\(type)\(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })" }
}

func note(_ name: String, _ text: String, folder: String? = nil) -> Record {
    var record = Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: SyncWorld.zone))
    record["text"] = .string(text)
    if let folder { record["folder"] = .reference(Reference(recordID: RecordID(recordName: folder, zoneID: SyncWorld.zone), action: .deleteSelf)) }
    return record
}

func folder(_ name: String, _ title: String) -> Record {
    var record = Record(recordType: "Folder", recordID: RecordID(recordName: name, zoneID: SyncWorld.zone))
    record["title"] = .string(title)
    return record
}

extension Database {
    /// The record, edited by `edit`, saved with the default policy.
    @discardableResult
    func edit(_ name: String, in zoneID: ZoneID = SyncWorld.zone, _ edit: (inout Record) -> Void) async throws -> Record {
        var record = try await record(for: RecordID(recordName: name, zoneID: zoneID))
        edit(&record)
        return try await save(record)
    }
}

extension Database {
    /// Saves a record with the default policy; the stored copy is returned for those who want it.
    @discardableResult
    func put(_ record: Record) async throws -> Record { try await save(record) }
}
