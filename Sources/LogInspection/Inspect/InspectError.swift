/// Why log-inspect could not do what it was asked.
public enum InspectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(String)
    /// The path is neither a store directory (with `recordlog.meta`) nor a segment file.
    case notAStoreOrSegment(String)
    /// A file could not be read.
    case unreadable(String)
    /// `--zone` names a zone the store does not have.
    case zoneNotFound(String, available: [String])
    /// `follow` was given a segment file; it needs a store directory.
    case followNeedsStore(String)
    /// `report --out` names a file that cannot be written.
    case unwritable(String)
    /// A `--header`/`--field` criterion that is not `key=value` or `key~=value`.
    case badMatch(String)

    public var description: String {
        switch self {
        case .notFound(let path): "\(path): no such file or directory"
        case .notAStoreOrSegment(let path):
            "\(path) is neither a store directory (it has no recordlog.meta) nor a segment file (.log)"
        case .unreadable(let path): "\(path): cannot be read"
        case .zoneNotFound(let zone, let available):
            "no zone '\(zone)'; the zones are: \(available.joined(separator: ", "))"
        case .followNeedsStore(let path): "\(path): follow needs a store directory, not a segment file"
        case .unwritable(let path): "\(path): cannot be written; give a path in a directory you can write to"
        case .badMatch(let text):
            "\(text.debugDescription) is not KEY=VALUE (equal) or KEY~=VALUE (contains), e.g. event=delete or title~=milk"
        }
    }
}
