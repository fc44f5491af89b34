/// Parses `YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM|±HHMM)` into milliseconds since the epoch.
struct ISO8601Parser {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The instant, or nil when the text is not in the accepted form or names no real date.
    mutating func parse() -> Int64? {
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2) else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, expect("T") || expect("t") || expect(" ") else { return nil }
        guard let hour = number(2), hour < 24, expect(":"), let minute = number(2), minute < 60 else { return nil }
        var second: Int64 = 0
        var millisecond: Int64 = 0
        if expect(":") {
            guard let value = number(2), value < 60 else { return nil }
            second = value
            if expect(".") || expect(",") {
                guard let fraction = fractionMilliseconds() else { return nil }
                millisecond = fraction
            }
        }
        guard let offsetMinutes = zoneOffset(), position == bytes.count else { return nil }
        let seconds = date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1000 + millisecond
    }

    /// `Z` (0) or `±HH:MM` / `±HHMM`, in minutes east of UTC.
    private mutating func zoneOffset() -> Int64? {
        if expect("Z") || expect("z") { return 0 }
        let sign: Int64
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let hours = number(2), hours <= 23 else { return nil }
        _ = expect(":")
        guard let minutes = number(2), minutes < 60 else { return nil }
        return sign * (hours * 60 + minutes)
    }

    /// One or more digits; the first three as milliseconds, the rest dropped (rounded down).
    private mutating func fractionMilliseconds() -> Int64? {
        var value: Int64 = 0
        var count = 0
        while position < bytes.count, let digit = digit(bytes[position]) {
            if count < 3 { value = value * 10 + digit }
            count += 1
            position += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }

    private mutating func number(_ width: Int) -> Int64? {
        guard position + width <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[position..<(position + width)] {
            guard let digit = digit(byte) else { return nil }
            value = value * 10 + digit
        }
        position += width
        return value
    }

    private mutating func expect(_ character: Character) -> Bool {
        guard position < bytes.count, let ascii = character.asciiValue, bytes[position] == ascii else { return false }
        position += 1
        return true
    }

    private func digit(_ byte: UInt8) -> Int64? {
        (48...57).contains(byte) ? Int64(byte - 48) : nil
    }
}
