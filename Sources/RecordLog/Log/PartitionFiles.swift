import StorageKit
/// Creating a partition's files: its directory with its name file and first segment.
enum PartitionFiles {
    /// The file in a partition directory holding the zone's exact name, UTF-8.
    static let zoneNameFile = "zone.name"

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
        _ = try LogSegment.create(directory: temporary, baseOffset: 0, indexIntervalBytes: 4096)
        try FileSystem.rename(temporary, final)
        try FileSystem.syncDirectory(zonesDirectory)
        return final
    }

    /// The zone name a partition directory's `zone.name` holds, checked against the directory's
    /// name.
    ///
    /// - Throws: `LogError.damagedFile` naming the file when it is missing, not UTF-8, or names
    ///   a zone that belongs in another directory.
    static func readZoneName(directory: String) throws -> String {
        let path = FileSystem.join(directory, zoneNameFile)
        guard FileSystem.exists(path) else {
            throw LogError.damagedFile(path: path, reason: "the zone directory has no \(zoneNameFile) file")
        }
        let bytes = try FileSystem.readAll(path)
        guard let zone = String(validating: bytes, as: UTF8.self), !zone.isEmpty else {
            throw LogError.damagedFile(path: path, reason: "the zone name is not UTF-8 text")
        }
        let directoryName = String(directory.split(separator: "/").last ?? "")
        let expected = try? ZoneDirectoryName.encode(zone)
        guard expected == directoryName else {
            throw LogError.damagedFile(
                path: path,
                reason: "it names zone \(zone.debugDescription), which belongs in directory \(expected ?? "?"), not \(directoryName)")
        }
        return zone
    }

    /// Rewrites a damaged or missing `zone.name` from the directory's name, when that name is not
    /// abbreviated (see `ZoneDirectoryName`); returns the file's path when it did.
    ///
    /// - Throws: `LogError.damagedFile` when the file is damaged and the directory's name cannot
    ///   tell the zone's name.
    static func restoreZoneName(directory: String) throws -> String? {
        let path = FileSystem.join(directory, zoneNameFile)
        let directoryName = String(directory.split(separator: "/").last ?? "")
        if FileSystem.exists(path), let zone = String(validating: try FileSystem.readAll(path), as: UTF8.self),
            (try? ZoneDirectoryName.encode(zone)) == directoryName
        {
            return nil
        }
        guard let zone = ZoneDirectoryName.decode(directoryName) else {
            throw LogError.damagedFile(
                path: path, reason: "the zone's name cannot be told from its abbreviated directory name; write it back by hand")
        }
        try FileSystem.writeAtomically(Array(zone.utf8), to: path, directory: directory)
        return path
    }
}
