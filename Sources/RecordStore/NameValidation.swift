/// Why a record name, zone name or owner name is invalid. Checks work on UTF-8 bytes so that the
/// decoder can apply them to untrusted bytes before building a `String`.
enum NameProblem: Equatable {
    case empty
    case tooLong(bytes: Int)
    case notASCII
    case leadingUnderscore

    /// The reason, in words, for an error message.
    var reason: String {
        switch self {
        case .empty: "it is empty"
        case .tooLong(let bytes): "it is \(bytes) bytes long, more than \(RecordLimits.maximumNameLength)"
        case .notASCII: "it contains a character that is not ASCII"
        case .leadingUnderscore: "it starts with an underscore, which is reserved"
        }
    }

    /// The problem of a record name (CloudKit: ASCII, 1...255 characters, no leading `_`), or nil.
    static func ofRecordName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> NameProblem? {
        if let problem = ofASCIIName(bytes) { return problem }
        return bytes.first == UInt8(ascii: "_") ? .leadingUnderscore : nil
    }

    /// The problem of a record name as the log may hold it: CloudKit's rule, except that the
    /// store's own system records, named `_sync.…` (FORMAT.md §10.3), are accepted.
    static func ofStoredRecordName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> NameProblem? {
        if let problem = ofASCIIName(bytes) { return problem }
        guard bytes.first == UInt8(ascii: "_") else { return nil }
        return bytes.starts(with: systemPrefix) ? nil : .leadingUnderscore
    }

    /// The prefix of every system record's name.
    private static let systemPrefix = Array("_sync.".utf8)

    /// The problem of a zone name (CloudKit: ASCII, 1...255 characters, no leading `_` except
    /// the default zone's `_defaultZone`), or nil.
    static func ofZoneName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> NameProblem? {
        if let problem = ofASCIIName(bytes) { return problem }
        guard bytes.first == UInt8(ascii: "_") else { return nil }
        return bytes.elementsEqual(RecordLimits.defaultZoneName.utf8) ? nil : .leadingUnderscore
    }

    /// The problem of an owner name (1...255 UTF-8 bytes; CloudKit's user names start with `_`), or nil.
    static func ofOwnerName(_ name: String) -> NameProblem? {
        let count = name.utf8.count
        if count == 0 { return .empty }
        return count > RecordLimits.maximumNameLength ? .tooLong(bytes: count) : nil
    }

    private static func ofASCIIName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> NameProblem? {
        let count = bytes.count
        if count == 0 { return .empty }
        if count > RecordLimits.maximumNameLength { return .tooLong(bytes: count) }
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        return union < 0x80 ? nil : .notASCII
    }
}

extension ZoneID {
    /// Checks the zone name and owner name against CloudKit's rules.
    ///
    /// - Throws: ``RecordStoreError/Code/invalidArguments`` naming the rule that was broken.
    package func validate() throws(RecordStoreError) {
        if let problem = zoneName.withUTF8Bytes(NameProblem.ofZoneName) {
            throw RecordStoreError(
                .invalidArguments,
                "Zone name \"\(zoneName)\" is invalid: \(problem.reason). "
                    + "Use 1 to 255 ASCII characters that do not start with an underscore.",
                zoneID: self)
        }
        if let problem = NameProblem.ofOwnerName(ownerName) {
            throw RecordStoreError(
                .invalidArguments,
                "Owner name of zone \"\(zoneName)\" is invalid: \(problem.reason). "
                    + "Leave the default (\(RecordLimits.defaultOwnerName)) unless the zone is shared.",
                zoneID: self)
        }
    }
}

extension RecordID {
    /// Checks the record name and the zone ID against CloudKit's rules.
    ///
    /// - Throws: ``RecordStoreError/Code/invalidArguments`` naming the rule that was broken.
    package func validate() throws(RecordStoreError) {
        try validate(allowingSystemName: false)
    }

    /// Checks the ID as ``validate()`` does; with `allowingSystemName`, a record name starting
    /// with `_` (a system record: FORMAT.md §10.3) is accepted.
    package func validate(allowingSystemName: Bool) throws(RecordStoreError) {
        let problem = recordName.withUTF8Bytes { allowingSystemName ? NameProblem.ofStoredRecordName($0) : NameProblem.ofRecordName($0) }
        if let problem {
            throw RecordStoreError(
                .invalidArguments,
                "Record name \"\(recordName)\" is invalid: \(problem.reason). "
                    + "Use 1 to 255 ASCII characters that do not start with an underscore, or RecordID() for a UUID.",
                recordID: self)
        }
        try zoneID.validate()
    }
}
