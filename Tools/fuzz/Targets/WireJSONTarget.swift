import RecordWire

/// A request body, as recordlog-server reads what any client sends (RecordWire's JSON parser and
/// each body's reader). Each input is tried as every request body the API takes and as an error
/// body (what the client reads). Whatever a reader accepts must be a fixed point of the codec:
/// written again and read again, it writes the same bytes.
enum WireJSONTarget {
    static func run(_ input: [UInt8]) {
        check(ModifyRecordsRequest.self, input)
        check(LookupRecordsRequest.self, input)
        check(QueryRecordsRequest.self, input)
        check(ZoneChangesRequest.self, input)
        check(DatabaseChangesRequest.self, input)
        check(ZonesModifyRequest.self, input)
        check(SubscriptionsModifyRequest.self, input)
        check(ErrorBody.self, input)
    }

    static func accepts(_ input: [UInt8]) -> Bool {
        (try? WireJSON.decode(ModifyRecordsRequest.self, from: input)) != nil
            || (try? WireJSON.decode(SubscriptionsModifyRequest.self, from: input)) != nil
            || (try? WireJSON.decode(ZoneChangesRequest.self, from: input)) != nil
    }

    private static func check<Body: WireCodable>(_ type: Body.Type, _ input: [UInt8]) {
        guard let body = try? WireJSON.decode(type, from: input) else { return }
        let written = WireJSON.encode(body)
        guard let again = try? WireJSON.decode(type, from: written) else {
            require(false, "\(type) wrote JSON it does not read: \(String(decoding: written, as: UTF8.self))")
            return
        }
        require(WireJSON.encode(again) == written, "\(type) does not write what it read back the same way")
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let modify = #"""
            {"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "1-4",
              "changedKeys": ["title", "gone"], "fields": {"title": {"value": "Buy \"milk\"\n", "type": "STRING"},
              "n": {"value": -9223372036854775808, "type": "INT64"}, "d": {"value": [0.5, "nan"], "type": "DOUBLE_LIST"},
              "at": {"value": 1700000000123, "type": "TIMESTAMP"}, "b": {"value": "AP8=", "type": "BYTES"},
              "f": {"value": {"recordName": "f1", "action": "DELETE_SELF"}, "type": "REFERENCE"},
              "l": {"value": {"latitude": 48.85, "longitude": 2.35}, "type": "LOCATION"},
              "x": {"value": [{"value": [true], "type": "BOOLEAN_LIST"}, {"value": [], "type": "LIST"}], "type": "LIST"}, "gone": null},
              "syncAuthor": {"editedAt": 1700000000000, "deviceID": "q80="}}],
             "deletes": [{"recordName": "n2"}], "savePolicy": "changedKeys", "atomic": false, "clientChangeToken": "AQID"}
            """#
        let subscriptions = #"""
            {"operations": [{"operationType": "create", "subscription": {"subscriptionID": "q", "subscriptionType": "query",
              "zoneID": {"zoneName": "Notes", "ownerRecordName": "alice"}, "firesOn": ["create", "delete"],
              "query": {"recordType": "Note", "filterBy": [{"fieldName": "where", "comparator": "NEAR", "distance": 500,
                "fieldValue": {"value": {"latitude": 1, "longitude": 2}, "type": "LOCATION"}}],
                "sortBy": [{"fieldName": "where", "ascending": false, "relativeLocation": {"latitude": 3, "longitude": "-inf"}}]}}},
              {"operationType": "delete", "subscriptionID": "old"}]}
            """#
        let changes = #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "UkxUSwE=", "resultsLimit": 0, "desiredKeys": []}]}"#
        return [("modify", Array(modify.utf8)), ("subscriptions", Array(subscriptions.utf8)), ("zone-changes", Array(changes.utf8))]
    }
}
