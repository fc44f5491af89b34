/// The compression codec of a batch: the low three bits of its attributes.
public enum CompressionCodec: Int16, Sendable, CaseIterable, CustomStringConvertible {
    case none = 0
    case gzip = 1
    case snappy = 2
    case lz4 = 3
    case zstd = 4

    public var description: String {
        switch self {
        case .none: "none"
        case .gzip: "gzip"
        case .snappy: "snappy"
        case .lz4: "lz4"
        case .zstd: "zstd"
        }
    }
}
