/// What a database may be called: 1 to 64 ASCII letters, digits, `-` and `_`, starting with a
/// letter or digit — safe as a directory name and as a URL path segment, unescaped.
public enum DatabaseName {
    /// The longest name.
    public static let maximumLength = 64

    /// Whether `name` is a valid database name.
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...maximumLength).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
