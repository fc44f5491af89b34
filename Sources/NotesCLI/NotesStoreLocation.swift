import Foundation

/// Where the notes command keeps its store: `--store DIR`, else `$NOTES_STORE`, else
/// `$XDG_DATA_HOME/recordlog-notes`, else `~/.local/share/recordlog-notes`.
package enum NotesStoreLocation {
    package static let environmentVariable = "NOTES_STORE"

    package static func resolve(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/recordlog-notes" }
        return (environment["HOME"] ?? ".") + "/.local/share/recordlog-notes"
    }

    /// Whether `path` holds a store already (its marker file): the notes command creates a fresh
    /// one, with the default folder, on its first run.
    package static func holdsStore(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/recordlog.meta")
    }
}
