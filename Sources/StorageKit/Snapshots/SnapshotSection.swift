/// The sections of one part of a sectioned snapshot file, by name: an enum whose raw values are
/// the sections' numbers within the part (FORMAT.md §12.1 and §12.2 number them so), in the
/// order they are written.
///
/// ```swift
/// enum Section: Int, SnapshotSection { case meta, cells, buckets }
/// try writer.startSection(Section.meta)          // a section numbered 0 starts a part
/// let cells = sections.array(.cells, of: Cell.self)
/// ```
///
/// The raw values are the format: renaming a case changes nothing on disk, renumbering one does.
package protocol SnapshotSection: CaseIterable, RawRepresentable, Sendable where RawValue == Int {}

extension SnapshotSection {
    /// How many sections a part of this kind takes.
    package static var count: Int { allCases.count }
}
