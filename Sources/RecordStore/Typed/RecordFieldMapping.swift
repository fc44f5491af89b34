/// How a ``RecordCodable`` model's coding keys map to a record: which keys are system-field roles,
/// which are stored fields, and which stored fields are references.
struct RecordFieldMapping: Sendable {
    /// What a key stands for instead of a field.
    enum Role: Sendable {
        case identifier
        case creationDate
        case modificationDate
    }

    let recordType: String
    /// Every key of the model's `Fields`, in declaration order.
    let allKeys: [String]
    /// The keys stored as record fields: `allKeys` minus the roles.
    let storedKeys: [String]
    let roles: [String: Role]
    let referenceActions: [String: Reference.Action]

    init<Model: RecordCodable>(_ model: Model.Type) {
        recordType = Model.recordType
        var roles: [String: Role] = [:]
        if let key = Model.identifierField?.rawValue { roles[key] = .identifier }
        if let key = Model.creationDateField?.rawValue { roles[key] = .creationDate }
        if let key = Model.modificationDateField?.rawValue { roles[key] = .modificationDate }
        self.roles = roles
        allKeys = Model.Fields.allCases.map(\.rawValue)
        storedKeys = allKeys.filter { roles[$0] == nil }
        var actions: [String: Reference.Action] = [:]
        for (field, action) in Model.referenceFields { actions[field.rawValue] = action }
        referenceActions = actions
    }

    func role(of key: String) -> Role? { roles[key] }

    /// The key a query uses for `key`: the system key of a date role, the field key of a stored
    /// field, nil for the identifier (the store cannot filter or sort on record names).
    func queryKey(for key: String) -> String? {
        switch role(of: key) {
        case .identifier: nil
        case .creationDate: SystemQueryKeys.creationDate
        case .modificationDate: SystemQueryKeys.modificationDate
        case nil: key
        }
    }

    /// `value` as stored under `key`: for a reference field, record names (strings) become
    /// references into `zoneID` and references take the field's action, element by element in lists.
    func storedValue(_ value: FieldValue, forKey key: String, in zoneID: ZoneID) -> FieldValue {
        guard let action = referenceActions[key] else { return value }
        return Self.referencing(value, action: action, in: zoneID)
    }

    private static func referencing(_ value: FieldValue, action: Reference.Action, in zoneID: ZoneID) -> FieldValue {
        switch value {
        case .string(let name): .reference(Reference(recordID: RecordID(recordName: name, zoneID: zoneID), action: action))
        case .reference(let reference): .reference(Reference(recordID: reference.recordID, action: action))
        case .list(let elements): .list(elements.map { referencing($0, action: action, in: zoneID) })
        default: value
        }
    }
}
