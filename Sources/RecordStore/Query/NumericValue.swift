/// An `int64` or `double` field value as a number, so the two compare with each other exactly, as
/// NSPredicate compares numbers: `3 == 3.0`, `2 < 2.5`, `-0.0 == 0`. A double holding a whole
/// number within `Int64`'s range is normalized to `.integer`, so equal numbers are equal (and hash
/// equal) whatever kind they were saved as. NaN is not a `NumericValue` (see ``OrderedValue/nan``).
enum NumericValue: Sendable, Hashable, Comparable {
    case integer(Int64)
    /// A finite double with a fractional part, or outside `Int64`'s range, or an infinity.
    case fraction(Double)

    /// 2⁶³, the first double above `Int64`'s range.
    private static let twoToThe63 = 9_223_372_036_854_775_808.0

    /// The number of `double`, nil for NaN.
    init?(_ double: Double) {
        guard !double.isNaN else { return nil }
        if double.rounded(.towardZero) == double, double >= -Self.twoToThe63, double < Self.twoToThe63 {
            self = .integer(Int64(double))
        } else {
            self = .fraction(double)
        }
    }

    static func < (lhs: NumericValue, rhs: NumericValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): a < b
        case (.fraction(let a), .fraction(let b)): a < b
        case (.integer(let a), .fraction(let b)): compare(a, b) < 0
        case (.fraction(let a), .integer(let b)): compare(b, a) > 0
        }
    }

    /// The exact order of an integer and a non-NaN double: negative, zero or positive.
    static func compare(_ integer: Int64, _ double: Double) -> Int {
        if double >= twoToThe63 { return -1 }
        if double < -twoToThe63 { return 1 }
        let whole = double.rounded(.towardZero)
        let wholeInteger = Int64(whole)  // in range: -2⁶³ ≤ whole < 2⁶³
        if integer != wholeInteger { return integer < wholeInteger ? -1 : 1 }
        let fraction = double - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }
}
