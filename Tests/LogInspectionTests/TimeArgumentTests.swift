import Foundation
import LogInspection
import Testing

/// The one TIME grammar of `log-inspect dump --since/--until` and `log-replay --at`.
@Suite struct TimeArgumentTests {
    @Test("TIME reads every form: milliseconds, ISO 8601 with a zone and a fraction, a date at midnight UTC, now", arguments: [
        ("1714564800000", 1_714_564_800_000),
        ("-5", -5),
        ("0", 0),
        ("2024-05-01T12:00:00Z", 1_714_564_800_000),
        ("2024-05-01T14:00:00+02:00", 1_714_564_800_000),
        ("2024-05-01T07:30:00-04:30", 1_714_564_800_000),
        ("2024-05-01T12:30:00+00:30", 1_714_564_800_000),
        ("2024-05-01T12:00:00.25Z", 1_714_564_800_250),
        ("2024-05-01T14:00:00.250+02:00", 1_714_564_800_250),
        ("2024-05-01T12:00:00.001Z", 1_714_564_800_001),
        ("2024-05-01T12:00:00.2509Z", 1_714_564_800_250),
        ("2024-05-01T12:00:00.999999999Z", 1_714_564_800_999),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("2024-05-01", 1_714_521_600_000),
        ("1969-12-31", -86_400_000),
        (" 2024-05-01T12:00:00Z ", 1_714_564_800_000),
    ] as [(String, Int64)])
    func forms(text: String, milliseconds: Int64) throws {
        #expect(try TimeArgument(text).milliseconds == milliseconds)
    }

    @Test("now is the current time in milliseconds")
    func now() throws {
        let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let now = try TimeArgument("now").milliseconds
        let after = Int64((Date().timeIntervalSince1970 * 1000).rounded(.up))
        #expect(before <= now && now <= after)
    }

    @Test("every millisecond of a second reads back exactly, as the tools print it", arguments: [0, 1, 7, 99, 250, 499, 998, 999])
    func exactMilliseconds(millisecond: Int64) throws {
        for instant in [1_714_564_800_000 + millisecond, -1_000 + millisecond, 253_402_300_799_000 + millisecond] {
            #expect(try TimeArgument(Timestamp.iso8601(milliseconds: instant)).milliseconds == instant)
        }
    }

    @Test("text in no form, and dates or times that do not exist, are refused with the forms to give", arguments: [
        "", "yesterday", "Now", "1.5", "12:00Z",
        "2024-05-01T12:00:00",  // no zone
        "2024-05-01 12:00:00Z", "2024-05-01t12:00:00z",  // not the T and Z of the grammar
        "2024-05-01T12:00Z",  // no seconds
        "2024-05-01T14:00:00+0200", "2024-05-01T14:00:00+02",  // a zone not ±hh:mm
        "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00,5Z",
        "2024-05-01T12:00:00Zjunk", "2024-05-01junk", "+2024-05-01T12:00:00Z", "12024-05-01T12:00:00Z", "2024-5-1",
        "2023-02-29", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-13-01", "2024-00-10", "0000-01-01",
        "2024-05-01T24:00:00Z", "2024-05-01T23:60:00Z", "2024-05-01T23:59:60Z",
        "2024-05-01T12:00:00+19:00", "2024-05-01T12:00:00+01:60",
        "２０２４-05-01", "１７１４５６４８００００",
    ])
    func refusals(text: String) {
        #expect(throws: TimeArgumentError(text: text)) { try TimeArgument(text) }
    }

    @Test("the error names what was given and every accepted form")
    func errorMessage() {
        let message = TimeArgumentError(text: "yesterday").description
        #expect(message.hasPrefix("\"yesterday\" is not a time"))
        #expect(message.contains(TimeArgument.forms))
        for example in ["1714564800000", "2024-05-01T12:00:00Z", "+02:00", "2024-05-01, meaning its midnight UTC", "`now`"] {
            #expect(TimeArgument.forms.contains(example), "\(example)")
        }
    }
}
