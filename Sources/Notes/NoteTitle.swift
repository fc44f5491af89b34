/// A note's title, derived from its content as the original app did, counting characters
/// (grapheme clusters), not bytes:
/// - "New Note" when the content is empty;
/// - the whole content when it is shorter than 20 characters;
/// - otherwise the first line, when it ends within the first 20 characters (without the newline);
/// - else the first 20 characters followed by "...".
public enum NoteTitle {
    public static let untitled = "New Note"
    public static let length = 20

    public static func make(from content: String) -> String {
        if content.isEmpty { return untitled }
        if content.count < length { return content }
        let head = content.prefix(length)
        if let newline = head.firstIndex(where: \.isNewline) { return String(content[..<newline]) }
        return String(head) + "..."
    }
}
