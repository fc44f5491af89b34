extension ZoneState {
    /// How many live records of each type the zone holds (what a view replaying it will see).
    var liveRecordsByType: [String: Int] {
        var counts = [Int](repeating: 0, count: records.types.names.count)
        for entry in records.entries where entry.typeID != KeyIndex.freeType { counts[Int(entry.typeID)] += 1 }
        var byType: [String: Int] = [:]
        for (id, count) in counts.enumerated() where count > 0 { byType[records.types.name(Int32(id))] = count }
        return byType
    }
}
