import Foundation

/// The workload's data: notes of about 300 bytes of text across 50 folders, from a fixed seed,
/// identical on both sides.
struct Dataset {
    static let folderCount = 50
    static let baseTime: Int64 = 1_767_225_600_000  // 2026-01-01

    struct Row {
        var name: String
        var folder: String
        var content: String
        var title: String
        var created: Int64
    }

    private static let words = [
        "milk", "meeting", "report", "quarterly", "call", "Anna", "budget", "flight", "hotel", "review",
        "design", "draft", "garden", "recipe", "bread", "invoice", "project", "deadline", "idea", "music",
        "the", "and", "for", "with", "about", "before", "after", "tomorrow", "next", "week",
    ]

    static func folderName(_ index: Int) -> String { "folder-" + String(format: "%02d", index) }

    /// Row `index` of the dataset (the same for the same index, every run).
    static func row(_ index: Int) -> Row { row(index, edit: 0) }

    /// Row `index` as its `edit`-th edit leaves it (the rewrite workload, `RewriteCost`): the
    /// same note — name, folder, creation — with other text of about the same length; edit 0 is
    /// the row as first saved.
    static func row(_ index: Int, edit: Int) -> Row {
        var state = (UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D) ^ (UInt64(edit) &* 0xD6E8_FEB8_6659_FD93)
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var content = edit == 0 ? "Note \(index): " : "Note \(index), edit \(edit): "
        while content.utf8.count < 300 { content += words[Int(next() % UInt64(words.count))] + " " }
        let name = "note-" + String(format: "%08d", index)
        return Row(
            name: name, folder: folderName(index % folderCount), content: content,
            title: String(content.prefix(20)) + "...", created: baseTime + Int64(index))
    }
}
