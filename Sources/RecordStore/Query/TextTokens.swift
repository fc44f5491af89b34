import Foundation

/// Full-text tokens for `tokenMatch` and `allTokensMatch`: words (runs of letters and digits)
/// folded case- and diacritic-insensitively, so "Crème Brûlée" and "creme BRULEE" have the same
/// tokens; a search ignores common English stopwords.
enum TextTokens {
    /// Words too common to search for: a search for "the bob" looks for "bob" only.
    static let stopwords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
        "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
    ]

    /// The folded words of a search text, stopwords left out.
    static func searchTokens(of text: String) -> [String] {
        tokens(of: text).filter { !stopwords.contains($0) }
    }

    /// The folded words of `text`.
    static func tokens(of text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !($0.isLetter || $0.isNumber) }
            .map(String.init)
    }

    /// The folded words of every string field of `record`, strings inside lists included.
    static func tokens(of record: Record) -> Set<String> {
        var result = Set<String>()
        func visit(_ value: FieldValue) {
            switch value {
            case .string(let text): result.formUnion(tokens(of: text))
            case .list(let values): values.forEach(visit)
            default: break
            }
        }
        for key in record.allKeys() {
            if let value = record[key] { visit(value) }
        }
        return result
    }
}
