extension ZoneState {
    /// How many live records of each type the zone holds (what a view replaying it will see).
    var liveRecordsByType: [String: Int] { records.liveRecordsByType }
}
