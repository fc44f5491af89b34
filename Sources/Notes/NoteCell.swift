import Foundation

/// A note as ``NoteSlots`` keeps it: 48 bytes, its id and content in the slots' ``TextArena``.
struct NoteCell: Sendable {
    /// Seconds since the reference date; meaningful when `flags` says so.
    var created: Double
    var modified: Double
    var id: TextRef
    var content: TextRef
    /// Index into `folderIDsByIndex`; -1 for a free slot.
    var folder: Int32
    var flags: UInt8

    static let hasCreated: UInt8 = 1
    static let hasModified: UInt8 = 2
    static let free = NoteCell(created: 0, modified: 0, id: .empty, content: .empty, folder: -1, flags: 0)

    var isFree: Bool { folder < 0 }
    var createdAt: Date? { flags & Self.hasCreated == 0 ? nil : Date(timeIntervalSinceReferenceDate: created) }
    var modifiedAt: Date? { flags & Self.hasModified == 0 ? nil : Date(timeIntervalSinceReferenceDate: modified) }
}
