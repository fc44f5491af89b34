/// Why a field key or record type is invalid. CloudKit's rule for both: one or more of
/// `[A-Za-z0-9_]`, starting with an ASCII letter (so a leading `_` is reserved), at most 255.
enum IdentifierProblem: Equatable {
    case empty
    case tooLong(characters: Int)
    case leadingUnderscore
    case badFirstCharacter
    case badCharacter(offset: Int)

    /// The reason, in words, for an error message.
    var reason: String {
        switch self {
        case .empty: "it is empty"
        case .tooLong(let count): "it is \(count) characters long, more than \(RecordLimits.maximumFieldKeyLength)"
        case .leadingUnderscore: "it starts with an underscore, which is reserved for system fields"
        case .badFirstCharacter: "it does not start with an ASCII letter"
        case .badCharacter(let offset): "the character at offset \(offset) is not an ASCII letter, digit or underscore"
        }
    }

    /// The problem of an identifier's UTF-8 bytes, or nil when it follows the rule.
    static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> IdentifierProblem? {
        guard let first = bytes.first else { return .empty }
        if first == UInt8(ascii: "_") { return .leadingUnderscore }
        if !isASCIILetter(first) { return .badFirstCharacter }
        var offset = 0
        for byte in bytes {
            if !(isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_"))
            {
                return .badCharacter(offset: offset)
            }
            offset += 1
        }
        return offset > RecordLimits.maximumFieldKeyLength ? .tooLong(characters: offset) : nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }
}

extension Record {
    /// Whether `key` may name a field: it starts with an ASCII letter, uses only `[A-Za-z0-9_]`,
    /// and is at most 255 characters long (a leading underscore is reserved, as in CloudKit).
    ///
    /// ```swift
    /// Record.isValidFieldKey("title")     // true
    /// Record.isValidFieldKey("_title")    // false
    /// ```
    package static func isValidFieldKey(_ key: String) -> Bool {
        key.withUTF8Bytes(IdentifierProblem.of) == nil
    }
}
