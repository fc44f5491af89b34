/// A snapshot's meta section as a value: a fixed run of uint64 words (little-endian on disk, as
/// they lie in memory), each a named field.
///
/// ``words`` is the encoding and ``init(words:)`` the decoding; the order of the words is the
/// format (FORMAT.md §12), so a field is added only with a new version of the snapshot. A meta
/// that carries a version refuses, in ``init(words:)``, any version but the one its type reads:
/// the caller then ignores the snapshot and replays the log.
package protocol SnapshotMeta: Equatable, Sendable {
    /// How many words the section holds.
    static var wordCount: Int { get }
    /// The words, in the order the file stores them.
    var words: [UInt64] { get }
    /// The meta `words` hold; nil unless they are ``wordCount`` words of a version and values
    /// this type reads.
    init?(words: [UInt64])
}
