import StorageKit

/// What compaction has done to a partition, kept in its directory as `cleaner-checkpoint`
/// (FORMAT.md §13.2): where the log now starts, how far it was cleaned, below which offset
/// deletes may have been dropped, and how many compactions dropped deletes (the drop sequence).
/// A partition never compacted has no file: all four are 0. Package access: `log-inspect
/// summary` reads it too.
package struct CleanerCheckpoint: Sendable, Equatable {
    package static let fileName = "cleaner-checkpoint"
    private static let magic = "RecordLog cleaner 2"
    /// The first version's magic: four lines, no drop sequence (read as 0).
    private static let firstMagic = "RecordLog cleaner 1"

    /// The first offset the log holds: the segments below it were emptied by compaction and removed.
    package var logStartOffset: Int64 = 0
    /// Offsets below it were in segments the last compaction cleaned (Kafka's first dirty offset).
    package var cleanedThrough: Int64 = 0
    /// A reader whose position is below it may have missed a delete that compaction dropped.
    package var expiryOffset: Int64 = 0
    /// A sequence lock over dropped deletes (FORMAT.md §11.1): odd from before a compaction that
    /// drops deletes changes a segment until after its last swap, even otherwise, and it never
    /// decreases. Two equal even values read at two times mean no delete was dropped between them.
    package var dropSequence: Int64 = 0

    /// Whether a compaction that drops deletes is under way, or was when it stopped.
    package var isDropping: Bool { dropSequence & 1 == 1 }

    /// Marks a compaction that drops deletes as begun (odd); one already marked stays as it is.
    mutating func beginDropping() {
        if !isDropping { dropSequence += 1 }
    }

    /// Marks it as over (even): its swaps are installed, or settled by a writer's open.
    mutating func endDropping() {
        if isDropping { dropSequence += 1 }
    }

    package static func path(directory: String) -> String { FileSystem.join(directory, fileName) }

    /// The checkpoint of the partition at `directory`; all zeros when it has none.
    ///
    /// - Throws: `LogError.damagedFile` when the file is there but is not a checkpoint: the log
    ///   start and the expiry offset cannot be guessed.
    package static func read(directory: String) throws -> CleanerCheckpoint {
        let path = path(directory: directory)
        guard FileSystem.exists(path) else { return CleanerCheckpoint() }
        let bytes = try FileSystem.readAll(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw LogError.damagedFile(path: path, reason: "the cleaner checkpoint is not UTF-8 text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func value(_ index: Int, _ name: String) -> Int64? {
            guard index < lines.count else { return nil }
            let parts = lines[index].split(separator: " ")
            guard parts.count == 2, parts[0] == name, let number = Int64(parts[1]), number >= 0 else { return nil }
            return number
        }
        let first = lines.first == Substring(firstMagic)
        let count = first ? 5 : 6
        guard lines.count == count, first || lines[0] == magic, lines[count - 1].isEmpty,
            let start = value(1, "logStartOffset"), let cleaned = value(2, "cleanedThrough"), let expiry = value(3, "expiryOffset"),
            let sequence = first ? 0 : value(4, "dropSequence")
        else {
            throw LogError.damagedFile(
                path: path, reason: "the cleaner checkpoint is not the lines FORMAT.md §13.2 describes; see `recordlog repair`")
        }
        return CleanerCheckpoint(logStartOffset: start, cleanedThrough: cleaned, expiryOffset: expiry, dropSequence: sequence)
    }

    /// Writes the checkpoint atomically (a `.tmp` file synced, renamed, the directory synced).
    func write(directory: String) throws {
        let text =
            "\(Self.magic)\nlogStartOffset \(logStartOffset)\ncleanedThrough \(cleanedThrough)\nexpiryOffset \(expiryOffset)\n"
            + "dropSequence \(dropSequence)\n"
        try FileSystem.writeAtomically(Array(text.utf8), to: Self.path(directory: directory), directory: directory)
    }
}
