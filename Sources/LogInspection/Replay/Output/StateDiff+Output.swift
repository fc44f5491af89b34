extension StateDiff {
    /// `{zone, from, to, added, changed, deleted}`: `added` holds the records as at `to` and
    /// `deleted` as at `from` (each as in `state --json`); `changed` holds `{recordName,
    /// recordType, offsetBefore, offset, fields: [{key, before, after}]}`, with `before`/`after`
    /// null for a field added/removed.
    public var json: String {
        jsonValue.pretty()
    }

    /// The object ``json`` prints, to embed in another (`bisect --json`).
    public var jsonValue: JSONValue {
        JSONValue.object([
            ("zone", .string(zone)),
            ("from", .int(from)),
            ("to", .int(to)),
            ("added", .array(added.map(\.json))),
            ("changed", .array(changed.map(\.json))),
            ("deleted", .array(deleted.map(\.json))),
        ])
    }

    /// `+` added, `~` changed (a line per field: `key: before → after`), `-` deleted.
    public var text: String {
        var lines: [String] = []
        for record in added {
            lines.append("+ \(record.recordName) (\(record.record.recordType)) @\(record.offset)")
            lines += record.record.fieldLines(indent: "    ")
        }
        for change in changed {
            lines.append("~ \(change.after.recordName) (\(change.after.record.recordType)) @\(change.before.offset) → @\(change.after.offset)")
            lines += change.fields.map { "    \($0.key): \($0.before?.replayText ?? "(none)") → \($0.after?.replayText ?? "(none)")" }
        }
        for record in deleted {
            lines.append("- \(record.recordName) (\(record.record.recordType)) was @\(record.offset)")
            lines += record.record.fieldLines(indent: "    ")
        }
        return lines.isEmpty ? "no differences between offsets \(from) and \(to) of zone \(zone)" : lines.joined(separator: "\n")
    }
}

extension StateDiff.Change {
    /// `{recordName, recordType, offsetBefore, offset, fields: [{key, before, after}]}`.
    var json: JSONValue {
        .object([
            ("recordName", .string(after.recordName)),
            ("recordType", .string(after.record.recordType)),
            ("offsetBefore", .int(before.offset)),
            ("offset", .int(after.offset)),
            ("fields", .array(fields.map { change in
                .object([
                    ("key", .string(change.key)),
                    ("before", change.before.map(FieldJSON.value) ?? .null),
                    ("after", change.after.map(FieldJSON.value) ?? .null),
                ])
            })),
        ])
    }
}
