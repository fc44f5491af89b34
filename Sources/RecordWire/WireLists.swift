import RecordStore

/// Members several bodies share.
enum WireLists {
    /// `"desiredKeys": [...]` when there are desired keys (absent: every field).
    static func writeDesiredKeys(_ keys: [String]?, to writer: inout JSONWriter) {
        guard let keys else { return }
        writer.strings("desiredKeys", keys)
    }

    static func desiredKeys(in object: WireObject) throws -> [String]? {
        try object.optional("desiredKeys").map { try $0.array().map { try $0.string() } }
    }

    /// What one operation of a batch (`zones/modify`, `subscriptions/modify`) did, after its ID:
    /// `"<valueKey>": value` (saved), `"deleted": true`, or `"error": {…}`.
    static func writeOutcome<Value>(
        _ outcome: Result<Value?, RecordStoreError>, valueKey: StaticString, to writer: inout JSONWriter,
        _ value: (inout JSONWriter, Value) -> Void
    ) {
        switch outcome {
        case .success(let saved?):
            writer.key(valueKey)
            value(&writer, saved)
        case .success(nil):
            writer.key("deleted")
            writer.bool(true)
        case .failure(let error):
            writer.key("error")
            ErrorBody(error).write(to: &writer)
        }
    }

    /// The outcome ``writeOutcome(_:valueKey:to:_:)`` wrote into `object`.
    static func outcome<Value>(
        in object: WireObject, valueKey: String, _ read: (WireReader) throws -> Value
    ) throws -> Result<Value?, RecordStoreError> {
        if let error = object.optional("error") { return .failure(try ErrorBody(wire: error).storeErrorOrInternal) }
        return .success(try object.optional(valueKey).map(read))
    }
}
