extension LiveRecord {
    /// `{zone, recordName, recordType, fields, offset, modificationDate, creationDate, changeTag}`;
    /// `offset` is that of the save that wrote this version; dates ISO 8601 or null; fields as
    /// log-inspect writes them (`FieldJSON`).
    public var json: JSONValue {
        .object([
            ("zone", .string(zone)),
            ("recordName", .string(recordName)),
            ("recordType", .string(record.recordType)),
            ("fields", FieldJSON.fields(of: record)),
            ("offset", .int(offset)),
            ("modificationDate", ReplayDate.json(record.modificationDate)),
            ("creationDate", ReplayDate.json(record.creationDate)),
            ("changeTag", .optional(record.recordChangeTag)),
        ])
    }

    /// `zone/name (Type) @offset  modified …` then a line per field.
    public var textLines: [String] {
        let modified = record.modificationDate.map { "  modified \(ReplayDate.iso8601($0))" } ?? ""
        return ["\(zone)/\(recordName) (\(record.recordType)) @\(offset)\(modified)"] + record.fieldLines(indent: "    ")
    }
}

extension ReplayState {
    /// The JSON array of the live records (see `LiveRecord.json`).
    public var json: String {
        JSONValue.array(records.map(\.json)).pretty()
    }

    /// The live records as text, or a line saying there are none.
    public var text: String {
        guard !records.isEmpty else { return "no live records" }
        return records.flatMap(\.textLines).joined(separator: "\n")
    }
}
