import StorageKit
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

    /// Checks the marker file: a store of format 1. A well-formed marker of another format is
    /// not ours to open; any other content is a damaged marker of a store.
    static func checkMarker(_ marker: String) throws {
        let bytes = try FileSystem.readAll(marker)
        guard bytes != Array(markerText.utf8) else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count == 3, lines[0] == "RecordLog store", lines[1].hasPrefix("format "), Int(lines[1].dropFirst(7)) != nil, lines[2].isEmpty {
            throw LogError.notAStore(
                path: marker, reason: "it is a RecordLog store of \(lines[1]), which this version cannot read (it reads format 1)")
        }
        throw LogError.damagedFile(
            path: marker, reason: "it should hold exactly \(markerText.debugDescription) but holds \(text.debugDescription)")
    }

    /// Creates the directory as a new store, or checks that it is one.
    static func prepare(_ directory: String, create: Bool) throws {
        let marker = FileSystem.join(directory, markerFile)
        if FileSystem.exists(marker) {
            try checkMarker(marker)
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
