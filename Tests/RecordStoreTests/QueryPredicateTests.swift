import Foundation
@testable import RecordStore
import Testing

/// Predicate semantics, evaluated on records in memory.
@Suite struct QueryPredicateTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    func matches(_ fields: [String: FieldValue], _ key: String, _ comparison: QueryPredicate.Comparison, _ value: FieldValue) -> Bool {
        QueryPredicate(key, comparison, value).matches(queryRecord("r", fields))
    }

    @Test func equalityOnEveryKind() {
        let reference = Reference(recordID: RecordID(recordName: "target"))
        let values: [FieldValue] = [
            .string("a"), .int64(7), .double(1.5), .bool(true), .date(date), .bytes([1, 2]),
            .reference(reference), .location(Location(latitude: 1, longitude: 2)), .list([.string("x"), .string("y")]),
        ]
        for value in values {
            #expect(matches(["f": value], "f", .equals, value), "\(value) == itself")
            #expect(!matches(["f": value], "f", .notEquals, value), "\(value) != itself")
        }
        #expect(matches(["f": .reference(Reference(recordID: reference.recordID, action: .deleteSelf))], "f", .equals, .reference(reference)),
                "references compare by record ID, not action")
        #expect(matches(["f": .string("a")], "f", .notEquals, .string("b")))
        #expect(!matches(["f": .list([.string("x")])], "f", .equals, .list([.string("x"), .string("y")])))
    }

    @Test func typeMismatchAndMissingFieldsNeverMatch() {
        #expect(!matches(["f": .string("3")], "f", .equals, .int64(3)))
        #expect(!matches(["f": .string("3")], "f", .notEquals, .int64(3)))
        #expect(!matches(["f": .bool(true)], "f", .equals, .int64(1)))
        #expect(!matches(["f": .string("3")], "f", .lessThan, .int64(5)))
        #expect(!matches([:], "f", .equals, .int64(3)))
        #expect(!matches([:], "f", .notEquals, .int64(3)))
        #expect(!matches([:], "f", .lessThan, .int64(3)))
    }

    @Test func stringsOrderByUTF8Bytes() {
        #expect(matches(["f": .string("Z")], "f", .lessThan, .string("a")), "uppercase sorts before lowercase")
        #expect(matches(["f": .string("z")], "f", .lessThan, .string("é")), "scalar order, not locale order")
        #expect(matches(["f": .string("ab")], "f", .greaterThan, .string("a")))
        #expect(matches(["f": .string("a")], "f", .lessThanOrEquals, .string("a")))
        #expect(matches(["f": .string("a")], "f", .greaterThanOrEquals, .string("a")))
        #expect(!matches(["f": .string("b")], "f", .lessThanOrEquals, .string("a")))
        // Canonically equivalent but differently encoded strings are different stored values.
        #expect(!matches(["f": .string("e\u{301}")], "f", .equals, .string("\u{e9}")))
    }

    @Test func numbersCompareAcrossInt64AndDouble() {
        #expect(matches(["f": .int64(3)], "f", .equals, .double(3.0)))
        #expect(matches(["f": .double(3.0)], "f", .equals, .int64(3)))
        #expect(matches(["f": .double(-0.0)], "f", .equals, .int64(0)))
        #expect(matches(["f": .int64(3)], "f", .lessThan, .double(3.5)))
        #expect(matches(["f": .double(2.5)], "f", .lessThan, .int64(3)))
        #expect(matches(["f": .double(-2.5)], "f", .lessThan, .int64(-2)))
        #expect(matches(["f": .int64(3)], "f", .notEquals, .double(3.25)))
        #expect(!matches(["f": .int64(3)], "f", .notEquals, .double(3.0)))
        #expect(matches(["f": .int64(3)], "f", .greaterThanOrEquals, .double(3.0)))
        #expect(matches(["f": .int64(3)], "f", .lessThanOrEquals, .double(3.0)))
        // Exact at the edges of Int64, where converting to Double would round.
        #expect(matches(["f": .int64(.max)], "f", .lessThan, .double(9_223_372_036_854_775_808.0)))
        #expect(matches(["f": .int64(.max - 1)], "f", .lessThan, .int64(.max)))
        #expect(matches(["f": .int64(.min)], "f", .equals, .double(-9_223_372_036_854_775_808.0)))
        #expect(matches(["f": .double(.infinity)], "f", .greaterThan, .int64(.max)))
        #expect(matches(["f": .double(-.infinity)], "f", .lessThan, .int64(.min)))
        // NaN is not ordered, but is the stored value it is.
        #expect(!matches(["f": .double(.nan)], "f", .lessThan, .int64(0)))
        #expect(!matches(["f": .double(.nan)], "f", .greaterThanOrEquals, .int64(0)))
        #expect(matches(["f": .double(.nan)], "f", .notEquals, .int64(0)))
        #expect(matches(["f": .double(.nan)], "f", .equals, .double(.nan)))
    }

    @Test func datesCompareByMillisecond() {
        #expect(matches(["f": .date(date)], "f", .equals, .date(date.addingTimeInterval(0.0001))))
        #expect(matches(["f": .date(date)], "f", .lessThan, .date(date.addingTimeInterval(0.001))))
        #expect(matches(["f": .date(date)], "f", .greaterThan, .date(date.addingTimeInterval(-60))))
        #expect(!matches(["f": .date(date)], "f", .greaterThan, .int64(0)), "a date is not a number")
    }

    @Test func inMatchesAnyListedValue() {
        let list = FieldValue.list([.string("a"), .string("c")])
        #expect(matches(["f": .string("a")], "f", .in, list))
        #expect(!matches(["f": .string("b")], "f", .in, list))
        #expect(matches(["f": .double(2)], "f", .in, .list([.int64(1), .int64(2)])))
        #expect(!matches(["f": .string("a")], "f", .in, .list([])))
        #expect(!matches([:], "f", .in, list))
    }

    @Test func beginsWithIsACaseSensitivePrefixTest() {
        #expect(matches(["f": .string("Crème brûlée")], "f", .beginsWith, .string("Crè")))
        #expect(!matches(["f": .string("Crème brûlée")], "f", .beginsWith, .string("crè")))
        #expect(matches(["f": .string("abc")], "f", .beginsWith, .string("")))
        #expect(matches(["f": .string("abc")], "f", .beginsWith, .string("abc")))
        #expect(!matches(["f": .string("ab")], "f", .beginsWith, .string("abc")))
        #expect(!matches(["f": .list([.string("abc")])], "f", .beginsWith, .string("a")))
    }

    @Test func listContainsLooksForAnElement() {
        let tags = FieldValue.list([.string("home"), .string("work")])
        #expect(matches(["f": tags], "f", .listContains, .string("work")))
        #expect(!matches(["f": tags], "f", .listContains, .string("play")))
        #expect(matches(["f": .list([.int64(1), .int64(2)])], "f", .listContains, .double(2)))
        #expect(!matches(["f": .string("work")], "f", .listContains, .string("work")), "a string is not a list")
    }

    @Test func allTokensMatchIsCaseAndDiacriticInsensitive() {
        let fields: [String: FieldValue] = [
            "title": .string("Crème Brûlée, the classic"), "notes": .string("Serves 4"), "tags": .list([.string("Dessert")]),
            "count": .int64(12),
        ]
        let all = QueryPredicate.allTokensKey
        #expect(matches(fields, all, .allTokensMatch, .string("creme brulee")))
        #expect(matches(fields, all, .allTokensMatch, .string("CRÈME")))
        #expect(matches(fields, all, .allTokensMatch, .string("brulee serves")), "tokens from several fields")
        #expect(matches(fields, all, .allTokensMatch, .string("dessert")), "strings inside lists count")
        #expect(matches(fields, all, .allTokensMatch, .string("4")))
        #expect(!matches(fields, all, .allTokensMatch, .string("crem")), "whole tokens only")
        #expect(!matches(fields, all, .allTokensMatch, .string("creme custard")), "every token must be present")
        #expect(matches(fields, all, .allTokensMatch, .string("the creme of")), "stopwords are not searched for")
        #expect(!matches(fields, all, .allTokensMatch, .string("12")), "numbers are not text")
        #expect(matches(fields, "self", .tokenMatch, .string("creme custard")), "self CONTAINS: any token")
    }

    @Test func systemKeysAreTheRecordDates() {
        var record = queryRecord("r", ["creationDate": .int64(1)])
        record.creationDate = date
        record.modificationDate = date.addingTimeInterval(10)
        #expect(QueryPredicate("creationDate", .equals, .date(date)).matches(record))
        #expect(!QueryPredicate("creationDate", .equals, .int64(1)).matches(record), "the system key wins over a field")
        #expect(QueryPredicate("modificationDate", .greaterThan, .date(date)).matches(record))
        #expect(!QueryPredicate("modificationDate", .greaterThan, .date(date)).matches(queryRecord("unsaved")))
    }

    @Test func queryMatchesRequireTheTypeAndEveryPredicate() {
        let record = queryRecord("r", ["a": .int64(1), "b": .string("x")])
        #expect(RecordQuery(recordType: "Item", predicates: [.init("a", .equals, .int64(1)), .init("b", .equals, .string("x"))]).matches(record))
        #expect(!RecordQuery(recordType: "Item", predicates: [.init("a", .equals, .int64(1)), .init("b", .equals, .string("y"))]).matches(record))
        #expect(!RecordQuery(recordType: "Other").matches(record))
    }
}
