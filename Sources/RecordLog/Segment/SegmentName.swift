/// Segment file names: the base offset in 20 decimal digits, then `.log`, `.index` or `.timeindex`
/// (or a compaction's `.log.cleaned` / `.log.swap`).
enum SegmentName {
    static let logSuffix = ".log"
    static let indexSuffix = ".index"
    static let timeIndexSuffix = ".timeindex"
    /// A compaction's cleaned segment being written (FORMAT.md §13.1): removed by the next open.
    static let cleanedSuffix = ".log.cleaned"
    /// A cleaned segment written whole: the next open finishes swapping it in.
    static let swapSuffix = ".log.swap"

    static func stem(_ baseOffset: Int64) -> String {
        let digits = String(baseOffset)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }

    /// The base offset named by a file name with `suffix`, or nil when it is not one of ours.
    static func baseOffset(of name: String, suffix: String) -> Int64? {
        guard name.hasSuffix(suffix) else { return nil }
        let stem = name.dropLast(suffix.count)
        guard stem.count == 20, stem.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(stem)
    }
}
