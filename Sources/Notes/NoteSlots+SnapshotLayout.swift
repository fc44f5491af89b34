import StorageKit

/// The Notes view's snapshot sections and meta by name (FORMAT.md §12.1). The raw values are the
/// sections' numbers and the meta's words are in the file's order: renaming changes no byte.
extension NoteSlots {
    /// The snapshot's sections.
    enum Section: Int, SnapshotSection {
        /// ``Meta``.
        case meta
        /// The cells, by slot, then room.
        case cells
        /// The id table's ``SlotTable`` buckets.
        case idTable
        /// The text pages' LZ4 frames, back to back.
        case textFrames
        /// Per page, its length decompressed and its frame's length.
        case pageSizes
        /// The folder ids: their lengths, then their UTF-8 (folder index order).
        case folderIDLengths, folderIDs
        /// How many notes each folder lists, then the folders' orders back to back.
        case orderLengths, orderSlots
    }

    /// Section 0: the format's version, the note count, the id table's seed and the texts' length.
    struct Meta: SnapshotMeta {
        /// The version this code writes and reads. It versions the id table's hash
        /// (``SlotTable/hash(_:seed:)``) too: a change to the hash is a new version.
        static let currentVersion: UInt64 = 2
        static let wordCount = 4

        var version = currentVersion
        /// N: how many notes (and cells).
        var noteCount: Int
        /// The seed of the id table's hashes.
        var idSeed: UInt64
        /// The length of the text pages, decompressed, all together.
        var textBytes: Int

        var words: [UInt64] { [version, UInt64(noteCount), idSeed, UInt64(textBytes)] }

        /// Refuses any version but ``currentVersion``, and more notes than an int32 numbers.
        init?(words: [UInt64]) {
            guard words.count == Self.wordCount, words[0] == Self.currentVersion, words[1] <= UInt64(Int32.max),
                let textBytes = Int(exactly: words[3])
            else { return nil }
            noteCount = Int(words[1])
            idSeed = words[2]
            self.textBytes = textBytes
        }

        init(version: UInt64 = currentVersion, noteCount: Int, idSeed: UInt64, textBytes: Int) {
            self.version = version
            self.noteCount = noteCount
            self.idSeed = idSeed
            self.textBytes = textBytes
        }
    }
}
