import StorageKit

// Flushing and sealing: the segment's bytes made durable as they are, and its indexes written
// beside it once it is no longer appended to.
extension LogSegment {
    /// Cuts the zeros written ahead of the appends and syncs the file (Kafka's `flush`): the file
    /// then holds exactly the segment's batches, on disk.
    mutating func flush() throws {
        try cutPreallocation()
        try file.syncData()
    }

    /// Seals the segment as it stops being appended to (Kafka's `onBecomeInactiveSegment`): cuts
    /// any zeros written ahead, adds the closing time-index entry and, when `writingIndexFiles`,
    /// writes the `.index` and `.timeindex` files (each atomically).
    mutating func seal(writingIndexFiles: Bool) throws {
        try cutPreallocation()
        indexer.seal()
        if writingIndexFiles {
            try writeIndexFiles()
            indexFilesCurrent = true
        }
        checkInvariants()
    }

    /// Takes the index files on disk as describing the segment, as an open may when the segment
    /// lies whole below the recovery point (FORMAT.md §6: a seal wrote them for exactly these
    /// batches) and both files are there. They are not read: the indexes were rebuilt by the
    /// scan; this only spares a close from writing the same files again.
    mutating func adoptIndexFiles() {
        guard FileSystem.exists(siblingPath(SegmentName.indexSuffix)), FileSystem.exists(siblingPath(SegmentName.timeIndexSuffix))
        else { return }
        indexFilesCurrent = true
    }

    /// Writes the `.index` and `.timeindex` files (each atomically).
    func writeIndexFiles() throws {
        try FileSystem.writeAtomically(
            indexer.offsetIndex.serialized(), to: siblingPath(SegmentName.indexSuffix), directory: directory)
        try FileSystem.writeAtomically(
            indexer.timeIndex.serialized(), to: siblingPath(SegmentName.timeIndexSuffix), directory: directory)
    }
}
