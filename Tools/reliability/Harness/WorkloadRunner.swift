import RecordStore

/// Performs workload steps on a database through the public API.
package enum WorkloadRunner {
    /// Performs `step`; returns once the commit is acknowledged (durable, with `.fsync`).
    package static func perform(_ step: WorkloadStep, on database: Database) async throws {
        switch step {
        case .save(let zone, let items):
            let zoneID = ZoneID(zoneName: zone)
            let records = items.sorted { $0.key < $1.key }.map { name, item in
                record(RecordID(recordName: name, zoneID: zoneID), item)
            }
            _ = try await database.modifyRecords(saving: records, deleting: [])
        case .edit(let zone, let name, let item):
            var record = try await database.record(for: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone)))
            record["step"] = .int64(item.step)
            record["text"] = .string(item.text)
            _ = try await database.modifyRecords(saving: [record], deleting: [])
        case .delete(let zone, let names):
            let zoneID = ZoneID(zoneName: zone)
            _ = try await database.modifyRecords(saving: [], deleting: names.map { RecordID(recordName: $0, zoneID: zoneID) })
        case .createZone(let zone):
            _ = try await database.createZone(ZoneID(zoneName: zone))
        case .deleteZone(let zone):
            try await database.deleteZone(ZoneID(zoneName: zone))
        case .checkpoint:
            try database.checkpoint()
        case .compact(let zone):
            try await database.compact(zone: ZoneID(zoneName: zone), tombstoneRetention: .zero)
        }
    }

    /// Performs the first `count` steps of `workload` on a new store; returns their model.
    package static func perform(_ count: Int, of workload: Workload, on database: Database) async throws -> StoreModel {
        var model = StoreModel()
        for index in 0..<count {
            let step = workload.step(index, after: model)
            try await perform(step, on: database)
            model.apply(step)
        }
        return model
    }

    private static func record(_ id: RecordID, _ item: StoreModel.Item) -> Record {
        var record = Record(recordType: StoreModel.recordType, recordID: id)
        record["step"] = .int64(item.step)
        record["text"] = .string(item.text)
        return record
    }
}
