import Foundation

/// The committed fixtures (`Fixtures/`) and their golden outputs (`Fixtures/golden/`), written by
/// the scripts in `Tools/fixtures/`.
public enum Fixtures {
    /// The repository root, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of a fixture, relative to `Fixtures/`.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// The golden file's text, or nil when it is missing.
    public static func golden(_ name: String) -> String? {
        try? String(contentsOfFile: path("golden/" + name), encoding: .utf8)
    }
}
