import Foundation
import RecordStore

/// How log-inspect writes record fields as JSON.
///
/// | FieldValue | JSON |
/// |---|---|
/// | string | a string |
/// | int64 | an integer |
/// | double | a number that always has a fraction or exponent (`1.0`, `1e-05`); NaN and ±infinity as `{"double":"nan"}`, `{"double":"inf"}`, `{"double":"-inf"}` |
/// | bool | `true` / `false` |
/// | date | `{"date":"2023-11-14T22:13:20.000Z"}` (UTC, milliseconds) |
/// | bytes | `{"bytes":"<base64>"}` |
/// | reference | `{"reference":"<record name>","action":"none"\|"deleteSelf"}` |
/// | location | `{"latitude":1.5,"longitude":-0.5}` |
/// | list | an array of its elements, each mapped by this table |
///
/// Strings, integers, doubles and booleans are plain JSON; every other type is an object with a
/// distinctive key, so a script can tell a date or bytes from a string.
public enum FieldJSON {
    /// The fields of `record`, by key, in key order.
    public static func fields(of record: Record) -> JSONValue {
        .object(record.allKeys().compactMap { key in record[key].map { (key, value($0)) } })
    }

    /// One value.
    public static func value(_ value: FieldValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .int64(let number): .int(number)
        case .double(let number):
            number.isFinite ? .double(number) : .object([("double", .string(number.isNaN ? "nan" : number < 0 ? "-inf" : "inf"))])
        case .bool(let flag): .bool(flag)
        case .date(let date): .object([("date", .string(Timestamp.iso8601(milliseconds: milliseconds(date))))])
        case .bytes(let bytes): .object([("bytes", .string(Data(bytes).base64EncodedString()))])
        case .reference(let reference):
            .object([
                ("reference", .string(reference.recordID.recordName)),
                ("action", .string(reference.action == .deleteSelf ? "deleteSelf" : "none")),
            ])
        case .location(let location):
            .object([("latitude", .double(location.latitude)), ("longitude", .double(location.longitude))])
        case .list(let elements): .array(elements.map(Self.value))
        }
    }

    /// A date as whole milliseconds since the epoch, as the store keeps it.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
