/// A point of the whole store, for the commands that rebuild it as a whole (`export`, `notes`).
public enum StorePoint: Sendable, Hashable {
    /// One zone cut at an offset (exclusive); what happens to the other zones is the command's rule.
    case zoneOffset(zone: String, offset: Int64)
    /// Every zone, and the system partition, cut at a time (events stamped at or before it).
    case time(Int64)
}
