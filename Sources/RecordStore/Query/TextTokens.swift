import Foundation

/// Full-text tokens for `tokenMatch`: words (runs of letters and digits) folded case- and
/// diacritic-insensitively, so "Crème Brûlée" and "creme BRULEE" have the same tokens.
enum TextTokens {
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
