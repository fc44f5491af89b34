/// One part of a mapped, sectioned snapshot file, its sections addressed by name
/// (``SnapshotSection``) and read in place.
///
/// Whoever opens the file checks its sections' bounds and checksums; this type only maps names to
/// byte ranges and byte ranges to arrays, strings and a meta. A reader still checks what the
/// sections say (counts, indices within bounds) before it trusts them.
package struct SnapshotSections<Section: SnapshotSection>: Sendable {
    /// The mapped file; ``MappedArray``s made from it keep it mapped.
    package let mapping: MappedFile
    /// The byte ranges of the part's sections within ``mapping``, by raw value.
    private let ranges: [Range<Int>]

    /// The part whose sections lie at `ranges` of `mapping`, in order; nil unless there is one
    /// range per case of `Section`, each within the mapping.
    package init?(mapping: MappedFile, ranges: some Collection<Range<Int>>) {
        guard ranges.count == Section.count, ranges.allSatisfy({ $0.lowerBound >= 0 && $0.upperBound <= mapping.bytes.count }) else {
            return nil
        }
        self.mapping = mapping
        self.ranges = Array(ranges)
    }

    /// The bytes of `section`.
    package func bytes(_ section: Section) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(mapping.bytes)[ranges[section.rawValue]])
    }

    /// The values `section` holds, read in place; nil when its length is not a whole number of values.
    package func array<Element: BitwiseCopyable & Sendable>(_ section: Section, of type: Element.Type = Element.self) -> MappedArray<Element>? {
        MappedArray(mapping: mapping, bytes: bytes(section))
    }

    /// The first `count` values of `section`, read in place, with the rest of the section as room
    /// to append into; nil unless it holds a whole number of values, at least `count`.
    package func array<Element: BitwiseCopyable & Sendable>(
        _ section: Section, count: Int, of type: Element.Type = Element.self
    ) -> MappedArray<Element>? {
        MappedArray(mapping: mapping, bytes: bytes(section), count: count)
    }

    /// The strings of two sections: `lengths`, a uint32 UTF-8 length per string, and `bytes`,
    /// their UTF-8 back to back; nil unless the lengths add up to the bytes.
    package func strings(lengths: Section, bytes: Section) -> [String]? {
        let text = self.bytes(bytes)
        guard let lengths = array(lengths, of: UInt32.self), lengths.reduce(0, { $0 + Int($1) }) == text.count else { return nil }
        var start = 0
        return lengths.map { length in
            defer { start += Int(length) }
            return String(decoding: text[start..<start + Int(length)], as: UTF8.self)
        }
    }

    /// The meta `section` holds; nil unless it is ``SnapshotMeta/wordCount`` words that `Meta`
    /// reads (of its version).
    package func meta<Meta: SnapshotMeta>(_ section: Section, as type: Meta.Type = Meta.self) -> Meta? {
        guard let words = array(section, of: UInt64.self), words.count == Meta.wordCount else { return nil }
        return Meta(words: Array(words))
    }
}
