/// The files at the top of a store directory.
enum StoreLayout {
    /// Marks a directory as a RecordLog store and names its format version.
    static let markerFile = "recordlog.meta"
    static let markerText = "RecordLog store\nformat 1\n"
    /// Holds one directory per zone.
    static let zonesDirectory = "zones"
    /// Where `Log.repair` puts the bytes it removes.
    static let lostAndFound = "lost+found"
    static let temporaryPrefix = ".tmp-"
    static let deletedPrefix = ".deleted-"

    /// Creates the directory as a new store, or checks that it is one.
    static func prepare(_ directory: String, create: Bool) throws {
        let marker = FileSystem.join(directory, markerFile)
        if FileSystem.exists(marker) {
            let text = String(decoding: try FileSystem.readAll(marker), as: UTF8.self)
            guard text == markerText else {
                throw LogError.notAStore(path: directory, reason: "\(markerFile) names an unknown format: \(text.debugDescription)")
            }
            if create { try FileSystem.makeDirectory(FileSystem.join(directory, zonesDirectory)) }
            return
        }
        guard create else { throw LogError.notAStore(path: directory, reason: "no \(markerFile) file") }
        // Only what an interrupted creation of a store leaves behind may be there already.
        let zones = FileSystem.join(directory, zonesDirectory)
        let entries = try FileSystem.list(directory).filter { name in
            name != StoreLock.fileName && name != markerFile + ".tmp"
                && !(name == zonesDirectory && ((try? FileSystem.list(zones).isEmpty) ?? false))
        }
        guard entries.isEmpty else {
            throw LogError.notAStore(path: directory, reason: "the directory is not empty and has no \(markerFile) file")
        }
        try FileSystem.makeDirectory(FileSystem.join(directory, zonesDirectory))
        try FileSystem.writeAtomically(Array(markerText.utf8), to: marker, directory: directory)
    }
}
