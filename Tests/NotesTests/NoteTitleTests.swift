import Notes
import Testing

/// The title rules, taken literally: "New Note" when the content is empty; the whole content when
/// it is shorter than 20 characters (newlines and all); otherwise the first line when a newline
/// falls within the first 20 characters (without the newline); else the first 20 characters
/// followed by "...". Characters are grapheme clusters, not bytes or scalars.
@Suite("Note titles")
struct NoteTitleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var content: String
        var title: String
        var testDescription: String { name }
    }

    static let twenty = "abcdefghijklmnopqrst"
    static let nineteen = "abcdefghijklmnopqrs"

    static let cases: [Case] = [
        Case(name: "empty", content: "", title: "New Note"),
        Case(name: "short", content: "Buy milk", title: "Buy milk"),
        Case(name: "one character", content: "x", title: "x"),
        Case(name: "blank but not empty", content: "   ", title: "   "),
        Case(name: "short, with newlines: all of it", content: "Milk\nEggs\nBread", title: "Milk\nEggs\nBread"),
        Case(name: "short, only a newline", content: "\n", title: "\n"),
        Case(name: "19 characters", content: nineteen, title: nineteen),
        Case(name: "19 characters ending in a newline", content: "abcdefghijklmnopqr\n", title: "abcdefghijklmnopqr\n"),
        Case(name: "exactly 20 characters, no newline", content: twenty, title: twenty + "..."),
        Case(name: "20 characters, a newline within them", content: "abcd\nfghijklmnopqrst", title: "abcd"),
        Case(name: "20 characters ending in a newline", content: nineteen + "\n", title: nineteen),
        Case(name: "first line ends within 20", content: "Shopping list\nmilk, eggs, bread", title: "Shopping list"),
        Case(name: "first line ends at the first character", content: "\nthe rest is longer than twenty", title: ""),
        Case(name: "newline as the 20th character", content: nineteen + "\nmore text", title: nineteen),
        Case(name: "newline as the 21st character", content: twenty + "\nmore text", title: twenty + "..."),
        Case(name: "20 characters and a trailing newline", content: twenty + "\n", title: twenty + "..."),
        Case(
            name: "first line longer than 20", content: "The quick brown fox jumps over\nthe lazy dog",
            title: "The quick brown fox ..."),
        Case(name: "long, no newline", content: "Lorem ipsum dolor sit amet, consectetur", title: "Lorem ipsum dolor si..."),
        Case(name: "only the first newline counts", content: "ab\ncd\nefghijklmnopqrstuvwxyz", title: "ab"),
        // "\r\n" is one character, and a newline.
        Case(name: "CRLF ends the first line", content: "Groceries\r\nmilk, eggs and bread", title: "Groceries"),
        Case(name: "CRLF counts as one character", content: String(repeating: "a", count: 18) + "\r\n", title: String(repeating: "a", count: 18) + "\r\n"),
        Case(name: "CRLF as the 20th character", content: nineteen + "\r\nmore", title: nineteen),
        Case(name: "a lone CR ends the first line", content: "Groceries\rmilk, eggs and bread", title: "Groceries"),
        // Emoji: one character each, however many bytes or scalars.
        Case(name: "19 emoji", content: String(repeating: "😀", count: 19), title: String(repeating: "😀", count: 19)),
        Case(name: "25 emoji", content: String(repeating: "😀", count: 25), title: String(repeating: "😀", count: 20) + "..."),
        Case(
            name: "family emoji (ZWJ sequences)", content: String(repeating: "👨‍👩‍👧‍👦", count: 21),
            title: String(repeating: "👨‍👩‍👧‍👦", count: 20) + "..."),
        Case(name: "flags", content: String(repeating: "🇯🇵", count: 19), title: String(repeating: "🇯🇵", count: 19)),
        Case(name: "emoji first line", content: "🎉 Party 🎂\nbring cake and balloons", title: "🎉 Party 🎂"),
        // Combining characters: "e" + U+0301 is one character.
        Case(name: "19 decomposed é", content: String(repeating: "e\u{301}", count: 19), title: String(repeating: "e\u{301}", count: 19)),
        Case(
            name: "25 decomposed é", content: String(repeating: "e\u{301}", count: 25),
            title: String(repeating: "e\u{301}", count: 20) + "..."),
        Case(
            name: "decomposed é before a newline at 20", content: String(repeating: "e\u{301}", count: 19) + "\nmore",
            title: String(repeating: "e\u{301}", count: 19)),
        // CJK: one character each (three UTF-8 bytes).
        Case(name: "short CJK", content: "買い物リスト", title: "買い物リスト"),
        Case(name: "CJK first line", content: "買い物リスト\n牛乳、卵、パン、バター、チーズ、りんご", title: "買い物リスト"),
        Case(name: "long CJK", content: String(repeating: "漢", count: 30), title: String(repeating: "漢", count: 20) + "..."),
        Case(name: "19 CJK", content: String(repeating: "漢", count: 19), title: String(repeating: "漢", count: 19)),
    ]

    @Test(arguments: cases)
    func title(_ example: Case) {
        #expect(NoteTitle.make(from: example.content) == example.title)
        #expect(Note(folderID: "f", content: example.content).title == example.title)
    }

    @Test func multibyteTitlesCountCharactersNotBytesOrScalars() {
        let decomposed = NoteTitle.make(from: String(repeating: "e\u{301}", count: 25))
        #expect(decomposed.count == 23)
        #expect(decomposed.unicodeScalars.count == 43)
        let family = NoteTitle.make(from: String(repeating: "👨‍👩‍👧‍👦", count: 21))
        #expect(family.count == 23)
        #expect(family.utf8.count == 20 * "👨‍👩‍👧‍👦".utf8.count + 3)
        let cjk = NoteTitle.make(from: String(repeating: "漢", count: 30))
        #expect(cjk.utf8.count == 63)
    }
}
