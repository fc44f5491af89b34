import Foundation
import StorageKit

/// A note as ``NoteSlots`` keeps it: 48 bytes, its id and content in the slots' ``TextArena``.
///
/// The view's mapped snapshot holds cells as they lie in memory (FORMAT.md §12.1): the fields in
/// this order, little-endian, with no padding — pinned by a test.
struct NoteCell: Sendable, BitwiseCopyable {
    /// Seconds since the reference date; meaningful when `flags` says so.
    var created: Double
    var modified: Double
    var id: TextRef
    var content: TextRef
    /// Index into `folderIDsByIndex`; -1 for a free slot.
    var folder: Int32
    /// ``hasCreated`` and ``hasModified``; 32 bits, so that the cell has no padding.
    var flags: UInt32

    static let hasCreated: UInt32 = 1
    static let hasModified: UInt32 = 2
    static let free = NoteCell(created: 0, modified: 0, id: .empty, content: .empty, folder: -1, flags: 0)

    var isFree: Bool { folder < 0 }
    var createdAt: Date? { flags & Self.hasCreated == 0 ? nil : Date(timeIntervalSinceReferenceDate: created) }
    var modifiedAt: Date? { flags & Self.hasModified == 0 ? nil : Date(timeIntervalSinceReferenceDate: modified) }
}
