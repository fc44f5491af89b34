#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole memory pages inside a range of a mapping's bytes: what `madvise` may be told about
/// a range without touching the bytes of its neighbours on the pages it shares with them.
enum WholePages {
    /// The page-aligned part of `range`, clipped to a mapping of `count` bytes; nil when it holds
    /// no whole page.
    static func inside(_ range: Range<Int>, of count: Int) -> Range<Int>? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + page - 1) / page * page
        let end = min(range.upperBound, count) / page * page
        return start < end ? start..<end : nil
    }
}
