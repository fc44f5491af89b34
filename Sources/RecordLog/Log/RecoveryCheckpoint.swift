import StorageKit
/// The `recovery-point-offset-checkpoint` file: for each partition directory, the offset below
/// which everything is synced and indexed, so an open validates only from there on.
///
/// Text, as Kafka's checkpoint files: a version line `0`, a count line, then one line per
/// partition, `<directory name> <offset>`. Written atomically (temporary file, fsync, rename).
/// A missing or unreadable file means "validate everything" — slower, never wrong.
enum RecoveryCheckpoint {
    static let fileName = "recovery-point-offset-checkpoint"

    static func read(directory: String) -> [String: Int64]? {
        let path = FileSystem.join(directory, fileName)
        guard FileSystem.exists(path), let bytes = try? FileSystem.readAll(path),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == "0", let count = Int(lines[1]), count >= 0, lines.count >= 2 + count else {
            return nil
        }
        var points: [String: Int64] = [:]
        for line in lines[2..<(2 + count)] {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let offset = Int64(fields[1]), offset >= 0 else { return nil }
            points[String(fields[0])] = offset
        }
        return points
    }

    static func write(_ points: [String: Int64], directory: String) throws {
        var text = "0\n\(points.count)\n"
        for (name, offset) in points.sorted(by: { $0.key < $1.key }) { text += "\(name) \(offset)\n" }
        try FileSystem.writeAtomically(Array(text.utf8), to: FileSystem.join(directory, fileName), directory: directory)
    }
}
