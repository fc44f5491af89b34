/// One zone's segment files, oldest first (a single segment file counts as one zone).
public struct ZoneFiles: Sendable {
    /// The zone's name (`zone.name`); for a lone segment file without one, the file's name.
    public let name: String
    /// The segments, in base-offset order.
    public let segments: [SegmentFile]
    /// The zone's directory in a store (nil for a lone segment file).
    package var directory: String? = nil
}

/// One segment file of a zone.
public struct SegmentFile: Sendable {
    /// The file's path, for reading.
    public let path: String
    /// The file's name as tools show it: relative to the store (`zones/Notes/000….log`), or the
    /// file's name for a lone segment, so output does not depend on where the store is.
    public let file: String

    /// The base offset the name states (20 digits + `.log`), if it has such a name.
    public var namedBaseOffset: Int64? {
        Self.baseOffset(ofFileName: String(path.split(separator: "/").last ?? ""))
    }

    static func baseOffset(ofFileName name: String) -> Int64? {
        guard name.hasSuffix(".log") else { return nil }
        let digits = name.dropLast(4)
        guard digits.count == 20, digits.allSatisfy(\.isASCII) else { return nil }
        return Int64(digits)
    }
}
