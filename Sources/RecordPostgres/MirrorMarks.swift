import Foundation
import StorageKit

/// A mirror's `postgres-mirror.json` (FORMAT.md §14.4): for each zone, the generation its
/// segment files belong to and the end below which they were known to equal PostgreSQL's rows
/// when the file was written. An open checks only what lies above that end against the rows.
///
/// ```json
/// {"zones":{"Notes":{"generation":"-81985529216486895","confirmedEnd":"1042"}}}
/// ```
///
/// Numbers are written as strings, so that every int64 survives a reader that parses JSON
/// numbers as doubles. A missing or unreadable file marks nothing: every zone is checked whole.
struct MirrorMarks: Equatable {
    struct Mark: Equatable {
        var generation: Int64
        var confirmedEnd: Int64
    }

    var zones: [String: Mark] = [:]

    static let fileName = "postgres-mirror.json"

    static func read(directory: String) -> MirrorMarks {
        let path = FileSystem.join(directory, fileName)
        guard let bytes = try? FileSystem.readAll(path),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let zones = object["zones"] as? [String: Any]
        else { return MirrorMarks() }
        var marks = MirrorMarks()
        for (name, value) in zones {
            guard let fields = value as? [String: Any], let generation = (fields["generation"] as? String).flatMap({ Int64($0) }),
                let end = (fields["confirmedEnd"] as? String).flatMap({ Int64($0) }), end >= 0
            else { continue }
            marks.zones[name] = Mark(generation: generation, confirmedEnd: end)
        }
        return marks
    }

    /// Replaces the file atomically (temporary file, rename).
    func write(directory: String) throws {
        var zones: [String: Any] = [:]
        for (name, mark) in self.zones {
            zones[name] = ["generation": String(mark.generation), "confirmedEnd": String(mark.confirmedEnd)]
        }
        let data = try JSONSerialization.data(withJSONObject: ["zones": zones], options: [.sortedKeys])
        try FileSystem.writeAtomically(Array(data), to: FileSystem.join(directory, Self.fileName), directory: directory)
    }
}
