import StorageKit

/// What compaction has done to a partition, kept in its directory as `cleaner-checkpoint`
/// (FORMAT.md §13.2): where the log now starts, how far it was cleaned, and below which offset
/// deletes may have been dropped. A partition never compacted has no file: all three are 0.
/// Package access: `log-inspect summary` reads it too.
package struct CleanerCheckpoint: Sendable, Equatable {
    package static let fileName = "cleaner-checkpoint"
    private static let magic = "RecordLog cleaner 1"

    /// The first offset the log holds: the segments below it were emptied by compaction and removed.
    package var logStartOffset: Int64 = 0
    /// Offsets below it were in segments the last compaction cleaned (Kafka's first dirty offset).
    package var cleanedThrough: Int64 = 0
    /// A reader whose position is below it may have missed a delete that compaction dropped.
    package var expiryOffset: Int64 = 0

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
        guard lines.count == 5, lines[0] == magic, lines[4].isEmpty,
            let start = value(1, "logStartOffset"), let cleaned = value(2, "cleanedThrough"), let expiry = value(3, "expiryOffset")
        else {
            throw LogError.damagedFile(
                path: path, reason: "the cleaner checkpoint is not the four lines FORMAT.md §13.2 describes; see `recordlog repair`")
        }
        return CleanerCheckpoint(logStartOffset: start, cleanedThrough: cleaned, expiryOffset: expiry)
    }

    /// Writes the checkpoint atomically (a `.tmp` file synced, renamed, the directory synced).
    func write(directory: String) throws {
        let text = "\(Self.magic)\nlogStartOffset \(logStartOffset)\ncleanedThrough \(cleanedThrough)\nexpiryOffset \(expiryOffset)\n"
        try FileSystem.writeAtomically(Array(text.utf8), to: Self.path(directory: directory), directory: directory)
    }
}
