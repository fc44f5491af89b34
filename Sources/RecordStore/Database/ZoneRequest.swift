/// One zone's part of a modify request: the records to save and the IDs to delete, in the order
/// the caller gave them.
struct ZoneRequest {
    let zoneID: ZoneID
    var saving: [Record] = []
    var deleting: [RecordID] = []

    /// Splits a request by zone, in zone-name order, refusing an ID named twice.
    ///
    /// Most requests touch one zone: an item in the same zone as the one before it is placed
    /// without hashing its zone, and a request of one item checks no duplicates at all.
    ///
    /// - Throws: `invalidArguments` for the first ID that appears twice (saved twice, deleted
    ///   twice, or both saved and deleted).
    static func split(saving: [Record], deleting: [RecordID]) throws(RecordStoreError) -> [ZoneRequest] {
        var groups: [ZoneRequest] = []
        var names: [Set<String>] = []
        var positions: [ZoneID: Int] = [:]
        let checksDuplicates = saving.count + deleting.count > 1
        func group(of zoneID: ZoneID) -> Int {
            if let last = groups.indices.last, groups[last].zoneID == zoneID { return last }
            if let known = positions[zoneID] { return known }
            groups.append(ZoneRequest(zoneID: zoneID))
            names.append([])
            positions[zoneID] = groups.count - 1
            return groups.count - 1
        }
        func checkOnce(_ id: RecordID, in index: Int) throws(RecordStoreError) {
            guard checksDuplicates else { return }
            if names[index].isEmpty { names[index].reserveCapacity(saving.count + deleting.count) }
            guard names[index].insert(id.recordName).inserted else {
                throw RecordStoreError(.invalidArguments, "Record \(id) appears twice in one request; save or delete it once.", recordID: id)
            }
        }
        for record in saving {
            let index = group(of: record.recordID.zoneID)
            try checkOnce(record.recordID, in: index)
            groups[index].saving.append(record)
        }
        for id in deleting {
            let index = group(of: id.zoneID)
            try checkOnce(id, in: index)
            groups[index].deleting.append(id)
        }
        if groups.count > 1 { groups.sort { $0.zoneID.zoneName < $1.zoneID.zoneName } }
        return groups
    }
}
