// Equality of stored values: doubles by bits, strings by UTF-8 bytes, dates by millisecond, so that `==` holds exactly
// when two values encode to the same bytes (and is reflexive even for NaN).
extension FieldValue: Hashable {
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a.hasSameUTF8(as: b)
        case (.int64(let a), .int64(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)): MillisecondDate.same(a, b)
        case (.bytes(let a), .bytes(let b)): a == b
        case (.reference(let a), .reference(let b)): a == b
        case (.location(let a), .location(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        switch self {
        case .string(let value): hasher.combine(value)  // byte-equal strings are String-equal
        case .int64(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value.bitPattern)
        case .bool(let value): hasher.combine(value)
        case .date(let value): MillisecondDate.hash(value, into: &hasher)
        case .bytes(let value): hasher.combine(value)
        case .reference(let value): hasher.combine(value)
        case .location(let value): hasher.combine(value)
        case .list(let value): hasher.combine(value)
        }
    }
}
