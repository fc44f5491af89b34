/// Creating a partition's files: its directory, name file and segments.
enum PartitionFiles {
    /// The file in a partition directory holding the zone's exact name, UTF-8.
    static let zoneNameFile = "zone.name"

    /// Creates an empty segment file (0600) and makes its directory entry durable.
    static func createSegment(directory: String, baseOffset: Int64, intervalBytes: Int) throws -> SegmentState {
        let path = FileSystem.join(directory, SegmentName.stem(baseOffset) + SegmentName.logSuffix)
        let file = try OpenFile(path: path, writable: true, create: true, exclusive: true)
        try FileSystem.syncDirectory(directory)
        return SegmentState(
            baseOffset: baseOffset, file: file, size: 0, allocated: 0, nextOffset: baseOffset, firstTimestamp: nil,
            indexer: SegmentIndexer(baseOffset: baseOffset, intervalBytes: intervalBytes))
    }

    /// Creates a partition directory atomically: it is built under a temporary name holding the
    /// zone name file and an empty first segment, then renamed into place.
    static func createPartitionDirectory(zonesDirectory: String, directoryName: String, zone: String) throws -> String {
        let final = FileSystem.join(zonesDirectory, directoryName)
        let temporary = FileSystem.join(zonesDirectory, ".tmp-" + directoryName)
        if FileSystem.exists(temporary) { try FileSystem.removeTree(temporary) }
        try FileSystem.makeDirectory(temporary)
        let nameFile = try OpenFile(
            path: FileSystem.join(temporary, zoneNameFile), writable: true, create: true, exclusive: true)
        try nameFile.write(Array(zone.utf8), at: 0)
        try nameFile.syncData()
        _ = try createSegment(directory: temporary, baseOffset: 0, intervalBytes: 4096)
        try FileSystem.rename(temporary, final)
        try FileSystem.syncDirectory(zonesDirectory)
        return final
    }
}
