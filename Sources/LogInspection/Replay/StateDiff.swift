/// How a zone's live records differ between two points.
///
/// It compares states, not events: a record saved again with the same fields is not changed, a
/// record created and deleted between the points does not appear, and a record whose type
/// differs counts as deleted and added (`history` shows every event).
public struct StateDiff: Sendable, Hashable {
    /// A record live at both points with different fields.
    public struct Change: Sendable, Hashable {
        /// The record at the earlier point.
        public var before: LiveRecord
        /// The record at the later point.
        public var after: LiveRecord
        /// The differing fields, by key.
        public var fields: [FieldChange]
    }

    /// The zone compared.
    public var zone: String
    /// The earlier point (exclusive offset).
    public var from: Int64
    /// The later point (exclusive offset).
    public var to: Int64
    /// Live at `to` only, by name.
    public var added: [LiveRecord]
    /// Live at both, with other fields, by name.
    public var changed: [Change]
    /// Live at `from` only (as they were then), by name.
    public var deleted: [LiveRecord]
    /// Facts about the points (inside a commit), one sentence each.
    public var warnings: [String]

    /// Compares two states of one zone.
    init(zone: String, from: Int64, to: Int64, before: LiveRecords, after: LiveRecords, warnings: [String]) {
        self.zone = zone
        self.from = from
        self.to = to
        self.warnings = warnings
        var added: [LiveRecord] = [], changed: [Change] = [], deleted: [LiveRecord] = []
        for new in after.sorted {
            guard let old = before.byName[new.recordName], old.record.recordType == new.record.recordType else {
                added.append(new)
                continue
            }
            let fields = FieldChange.between(old.record, new.record)
            if !fields.isEmpty { changed.append(Change(before: old, after: new, fields: fields)) }
        }
        for old in before.sorted {
            if let new = after.byName[old.recordName], new.record.recordType == old.record.recordType { continue }
            deleted.append(old)
        }
        self.added = added
        self.changed = changed
        self.deleted = deleted
    }
}
