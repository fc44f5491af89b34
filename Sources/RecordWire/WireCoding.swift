import Foundation

/// The JSON coders of the server's API, one configuration for both sides: dates as whole
/// milliseconds since 1970 (the store keeps milliseconds), the doubles JSON cannot spell (NaN,
/// infinities) as the strings `"nan"`, `"+inf"`, `"-inf"`, keys sorted so equal bodies are equal
/// bytes.
package enum WireCoding {
    static let floats = (positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")

    /// A new encoder for request and response bodies.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder for request and response bodies.
    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: floats.positiveInfinity, negativeInfinity: floats.negativeInfinity, nan: floats.nan)
        return decoder
    }

    /// Says what is wrong with a body that did not decode, in one sentence a client developer can
    /// act on: the key path and what was expected there.
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the body" : String(keys.dropFirst(keys.hasPrefix(".") ? 1 : 0))
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type). \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null."
        case .keyNotFound(let key, let context):
            let container = path(context)
            return "\(container == "the body" ? "the body" : container) lacks the key \"\(key.stringValue)\"."
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey].map { " (\($0))" } ?? ""
            return "\(path(context)): \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }
}
