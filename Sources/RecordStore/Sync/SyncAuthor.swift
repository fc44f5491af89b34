/// Who last edited a synced record, and when: the device (its store's identity) and the edit's
/// time in milliseconds since 1970, as that device's clock read it. A device's store stamps every
/// app save in a synced zone; the stamp travels with the record to the remote and back, so a
/// merge compares *edit* times — not the times the remote happened to receive the edits — and
/// breaks a tie by device (FORMAT.md §9, flag bit 4).
package struct SyncAuthor: Sendable, Hashable, Codable {
    /// When the edit was made, in milliseconds since 1970.
    package var editedAt: Int64
    /// The editing device's identity (its store's 16-byte identity), at most 255 bytes.
    package var device: [UInt8]

    package init(editedAt: Int64, device: [UInt8]) {
        self.editedAt = editedAt
        self.device = device
    }

    /// Whether this edit wins over `other` on a key both changed: the later edit, and at the same
    /// millisecond the greater device identity — an order every device computes alike.
    package func isLater(than other: SyncAuthor) -> Bool {
        editedAt != other.editedAt ? editedAt > other.editedAt : device.lexicographicallyPrecedes(other.device) == false && device != other.device
    }
}
