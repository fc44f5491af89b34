import RecordStore

extension FieldValue {
    /// The value on one line, for the text outputs: strings quoted with Swift escapes, dates in
    /// ISO 8601, bytes as their count and first 16 in hex, references as `→name`.
    public var replayText: String {
        switch self {
        case .string(let text): return text.debugDescription
        case .int64(let number): return String(number)
        case .double(let number): return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return ReplayDate.iso8601(date)
        case .bytes(let bytes):
            let hex = bytes.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            return "<\(bytes.count) bytes \(hex)\(bytes.count > 16 ? "…" : "")>"
        case .reference(let reference):
            return "→" + reference.recordID.recordName + (reference.action == .deleteSelf ? " (deleteSelf)" : "")
        case .location(let location): return "(\(location.latitude), \(location.longitude))"
        case .list(let elements): return "[" + elements.map(\.replayText).joined(separator: ", ") + "]"
        }
    }
}

extension Record {
    /// One `key = value` line per field, by key, each indented by `indent`.
    func fieldLines(indent: String) -> [String] {
        allKeys().sorted().compactMap { key in self[key].map { "\(indent)\(key) = \($0.replayText)" } }
    }
}
