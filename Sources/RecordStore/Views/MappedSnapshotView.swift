import StorageKit
/// A materialized view whose checkpoint writes its state as sections of plain bytes that the next
/// open reads in place (memory-mapped), instead of its Codable JSON.
///
/// Opening a store then costs the view almost nothing however much it holds: the kernel reads a
/// page of the snapshot when the view first touches it, so a view that keeps every record's text
/// adds to the process's memory only what is read. Keep the state in ``MappedArray``s, which read
/// their elements from the snapshot and move to the heap only when they outgrow them.
///
/// The database checks the CRC-32C of every block of every section before the view sees them;
/// the view must still check that what the sections say is consistent (counts, indices within
/// bounds) and return nil otherwise — the view is then rebuilt by replaying the log.
package protocol MappedSnapshotView: MaterializedView {
    /// Writes the view's state, one ``ViewSnapshotWriter/startSection(_:)`` per part, each
    /// section named by a ``SnapshotSection`` of the view's (read back with
    /// ``MappedViewSnapshot/sections(_:from:)``).
    func writeSnapshot(to writer: inout ViewSnapshotWriter) throws
    /// The view as its snapshot's sections hold it, or nil when they are not a view this type
    /// wrote (a format it does not know, counts that do not add up, an index out of bounds).
    init?(snapshot: MappedViewSnapshot)
}
