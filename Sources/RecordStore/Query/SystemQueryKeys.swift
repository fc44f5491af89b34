/// The system fields a query can filter and sort on, as CloudKit's `creationDate` and
/// `modificationDate`. They take precedence over record fields of the same name, so a field a
/// record stores under one of these keys cannot be queried.
enum SystemQueryKeys {
    static let creationDate = "creationDate"
    static let modificationDate = "modificationDate"
    static let all: Set<String> = [creationDate, modificationDate]

    static func contains(_ key: String) -> Bool { all.contains(key) }
}

extension Record {
    /// The value a query sees under `key`: a system date for a system key, else the field.
    func queryValue(forKey key: String) -> FieldValue? {
        switch key {
        case SystemQueryKeys.creationDate: creationDate.map(FieldValue.date)
        case SystemQueryKeys.modificationDate: modificationDate.map(FieldValue.date)
        default: self[key]
        }
    }
}
