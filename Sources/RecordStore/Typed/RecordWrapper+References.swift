// References between wrapped records.
extension RecordWrapper {
    /// A reference to this record, to store in another record's field.
    ///
    /// ```swift
    /// note.setField(.folder, .reference(folder.reference(action: .deleteSelf)))
    /// ```
    public func reference(action: Reference.Action = .none) -> Reference {
        Reference(recordID: record.recordID, action: action)
    }

    /// A reference to the record `recordID` (of this record's zone), to store in a field.
    ///
    /// ```swift
    /// note.setField(.folder, .reference(note.reference(to: folderID, action: .deleteSelf)))
    /// ```
    public func reference(to recordID: RecordID, action: Reference.Action = .none) -> Reference {
        Reference(recordID: recordID, action: action)
    }

    /// The reference in field `key`.
    public func reference(_ key: FieldKey) -> Reference? {
        if case .reference(let value) = field(key) { value } else { nil }
    }

    /// The ID of the record that field `key` refers to.
    ///
    /// ```swift
    /// let folderID = note.referencedID(.folder)
    /// ```
    public func referencedID(_ key: FieldKey) -> RecordID? {
        reference(key)?.recordID
    }

    /// Makes field `key` refer to `target` with `action`; nil removes the field.
    ///
    /// ```swift
    /// note.setReference(.folder, to: folder.identifier, action: .deleteSelf)
    /// ```
    public mutating func setReference(_ key: FieldKey, to target: RecordID?, action: Reference.Action = .none) {
        setField(key, target.map { .reference(Reference(recordID: $0, action: action)) })
    }
}
