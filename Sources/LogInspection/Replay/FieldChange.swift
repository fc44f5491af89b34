import RecordStore

/// One field that differs between two versions of a record: added (no `before`), removed (no
/// `after`) or changed.
public struct FieldChange: Sendable, Hashable {
    /// The field's key.
    public var key: String
    /// The value at the earlier point; nil when the field was added.
    public var before: FieldValue?
    /// The value at the later point; nil when the field was removed.
    public var after: FieldValue?

    /// A change of the field `key` from `before` to `after`.
    public init(key: String, before: FieldValue?, after: FieldValue?) {
        self.key = key
        self.before = before
        self.after = after
    }

    /// The fields that differ between `old` and `new`, by key.
    public static func between(_ old: Record, _ new: Record) -> [FieldChange] {
        let keys = Set(old.allKeys()).union(new.allKeys()).sorted()
        return keys.compactMap { key in
            let before = old[key], after = new[key]
            return before == after ? nil : FieldChange(key: key, before: before, after: after)
        }
    }
}
