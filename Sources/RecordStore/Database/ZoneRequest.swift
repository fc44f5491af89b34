import StorageKit
/// One zone's part of a modify request: the records to save and the IDs to delete, in the order
/// the caller gave them.
struct ZoneRequest {
    let zoneID: ZoneID
    var saving: [Record] = []
    var deleting: [RecordID] = []

    /// Splits a request by zone, in zone-name order, refusing an ID named twice.
    ///
    /// Most requests touch one zone: then the caller's arrays are that zone's part as they are,
    /// found without hashing any zone, and a request of one item checks no duplicates at all.
    ///
    /// - Throws: `invalidArguments` for an ID that appears twice (saved twice, deleted twice, or
    ///   both saved and deleted).
    static func split(saving: [Record], deleting: [RecordID]) throws(RecordStoreError) -> [ZoneRequest] {
        guard let first = saving.first?.recordID.zoneID ?? deleting.first?.zoneID else { return [] }
        var groups: [ZoneRequest]
        if saving.allSatisfy({ $0.recordID.zoneID == first }), deleting.allSatisfy({ $0.zoneID == first }) {
            groups = [ZoneRequest(zoneID: first, saving: saving, deleting: deleting)]
        } else {
            groups = []
            var positions: [ZoneID: Int] = [:]
            func group(of zoneID: ZoneID) -> Int {
                if let last = groups.indices.last, groups[last].zoneID == zoneID { return last }
                if let known = positions[zoneID] { return known }
                groups.append(ZoneRequest(zoneID: zoneID))
                positions[zoneID] = groups.count - 1
                return groups.count - 1
            }
            for record in saving { groups[group(of: record.recordID.zoneID)].saving.append(record) }
            for id in deleting { groups[group(of: id.zoneID)].deleting.append(id) }
            groups.sort { $0.zoneID.zoneName < $1.zoneID.zoneName }
        }
        for group in groups { try group.checkNamedOnce() }
        return groups
    }

    /// Refuses a record name that appears twice among the zone's saves and deletes. The zone is
    /// fixed, so the names alone are compared, through a ``SlotTable`` over the request's own
    /// arrays: one hash per name, no set of strings built.
    private func checkNamedOnce() throws(RecordStoreError) {
        let count = saving.count + deleting.count
        guard count > 1 else { return }
        var table = SlotTable()
        table.reserveCapacity(count)
        for index in 0..<count {
            let name = self.name(at: index)
            let slot = table.findOrInsert(hash: SlotTable.hash(name), fresh: Int32(index)) { self.name(at: Int($0)) == name }
            guard slot == Int32(index) else {
                let id = index < saving.count ? saving[index].recordID : deleting[index - saving.count]
                throw RecordStoreError(.invalidArguments, "Record \(id) appears twice in one request; save or delete it once.", recordID: id)
            }
        }
    }

    /// The record name of item `index`: the saves, then the deletes.
    private func name(at index: Int) -> String {
        index < saving.count ? saving[index].recordID.recordName : deleting[index - saving.count].recordName
    }
}
