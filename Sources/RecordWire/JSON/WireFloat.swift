/// The doubles JSON cannot spell, as the wire spells them: the strings `"nan"`, `"+inf"` and
/// `"-inf"` wherever a number is expected.
package enum WireFloat {
    /// The string for a non-finite value; nil for a finite one, which is written as a number.
    package static func spelling(of value: Double) -> String? {
        if value.isNaN { return "nan" }
        if value == .infinity { return "+inf" }
        if value == -.infinity { return "-inf" }
        return nil
    }

    /// The value a spelling stands for; nil for any other string.
    package static func value(spelled text: String) -> Double? {
        switch text {
        case "nan": .nan
        case "+inf": .infinity
        case "-inf": -.infinity
        default: nil
        }
    }
}
