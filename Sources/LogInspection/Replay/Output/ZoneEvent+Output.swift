extension ZoneEvent {
    /// `{offset, timestamp, event, recordType, changeTag, fields, modificationDate}`; `timestamp`
    /// in milliseconds since the epoch, `fields` null for a delete.
    public var json: JSONValue {
        .object([
            ("offset", .int(offset)),
            ("timestamp", .int(timestamp)),
            ("event", .string(kind.rawValue)),
            ("recordType", .string(recordType)),
            ("changeTag", .optional(changeTag)),
            ("fields", record.map(FieldJSON.fields(of:)) ?? .null),
            ("modificationDate", ReplayDate.json(record?.modificationDate)),
        ])
    }

    /// `@offset  time  event  Type  changeTag …`, then a line per saved field.
    public var textLines: [String] {
        let tag = changeTag.map { "  changeTag \($0)" } ?? ""
        let event = kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
        return ["@\(offset)  \(ReplayDate.iso8601(timestamp))  \(event)  \(recordType)\(tag)"] + (record?.fieldLines(indent: "    ") ?? [])
    }
}

/// The `history` command's outputs.
public enum HistoryOutput {
    /// A JSON array of the events, oldest first (see `ZoneEvent.json`).
    public static func json(_ events: [ZoneEvent]) -> String {
        JSONValue.array(events.map(\.json)).pretty()
    }

    /// The events as text, oldest first.
    public static func text(_ events: [ZoneEvent]) -> String {
        events.flatMap(\.textLines).joined(separator: "\n")
    }
}
