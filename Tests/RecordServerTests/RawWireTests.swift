import AsyncHTTPClient
import CompressNIO
import Foundation
import NIOCore
import NIOHTTP1
import RecordServer
import Testing

/// The API as a client in another language meets it: raw HTTP on a real loopback socket,
/// hand-written JSON in, answers read with Foundation's JSONSerialization — no Swift type the
/// server shares. Every endpoint, every field type, the save rule, errors and limits.
@Suite struct RawWireTests {
    /// A server with a zone "Notes" and a raw client of database "notes".
    struct Client {
        let server: TestServer
        var token: String { server.tokens["notes"] ?? "" }

        static func start(
            _ storage: ServerStorage, configure: (inout RecordServerConfiguration) -> Void = { _ in }
        ) async throws -> Client {
            let client = Client(server: try await TestServer.start(storage, configure: configure))
            let created = try await client.post("zones/modify", #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Notes"}}}]}"#)
            #expect(created.status == 200, "\(created.body)")
            return client
        }

        func post(_ endpoint: String, _ body: String) async throws -> RawAnswer {
            let answer = try await server.raw(.POST, "/v1/databases/notes/\(endpoint)", body: body, token: token)
            try RawWireTests.checkPlain(answer.body)
            return answer
        }

        func get(_ endpoint: String) async throws -> RawAnswer {
            let answer = try await server.raw(.GET, "/v1/databases/notes/\(endpoint)", token: token)
            try RawWireTests.checkPlain(answer.body)
            return answer
        }

        /// Posts and parses a 200 answer as an object.
        func json(_ endpoint: String, _ body: String) async throws -> [String: Any] {
            let answer = try await post(endpoint, body)
            #expect(answer.status == 200, "\(endpoint): \(answer.status) \(answer.body)")
            return try RawWireTests.object(answer.body)
        }

        /// The record `name` of zone Notes as the server returns it, or its error object.
        func lookup(_ name: String) async throws -> [String: Any] {
            let answer = try await json("records/lookup", #"{"records": [{"recordName": "\#(name)", "zoneID": {"zoneName": "Notes"}}]}"#)
            let records = try #require(answer["records"] as? [[String: Any]])
            return try #require(records.first)
        }

        func stop() async throws { try await server.stopAndRemove() }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// No answer may carry Swift's synthesized enum coding (`_0`) or bytes as arrays of numbers.
    static func checkPlain(_ body: String) throws {
        #expect(!body.contains("\"_0\""), "an answer has a `_0` key: \(body.prefix(300))")
        #expect(body.range(of: #"\[(\d{1,3},){3,}\d{1,3}\]"#, options: .regularExpression) == nil, "an answer has bytes as numbers: \(body.prefix(300))")
    }

    /// A parsed value as JSON text with sorted keys, to compare two.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    static func fields(_ record: [String: Any]) throws -> [String: [String: Any]] {
        try #require(record["fields"] as? [String: [String: Any]], "no fields in \(record)")
    }

    static func tag(_ record: [String: Any]) throws -> String {
        try #require(record["recordChangeTag"] as? String, "no change tag in \(record)")
    }

    static func string(_ record: [String: Any], _ key: String) throws -> String? {
        try fields(record)[key]?["value"] as? String
    }

    // MARK: Field types

    @Test("every field type round-trips in CloudKit Web Services' shape: value and type as sent", arguments: ServerStorage.allCases)
    func everyFieldType(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        _ = try await client.json("records/modify", #"{"saves": [{"recordName": "f1", "zoneID": {"zoneName": "Notes"}, "recordType": "Folder", "fields": {}}]}"#)
        let fields: [(String, String)] = [
            ("s", #"{"value": "Grüße \"quoted\"\n\ttab ☃ 𝄞 \u0001", "type": "STRING"}"#),
            ("imax", #"{"value": 9223372036854775807, "type": "INT64"}"#),
            ("imin", #"{"value": -9223372036854775808, "type": "INT64"}"#),
            ("d", #"{"value": 0.1, "type": "DOUBLE"}"#),
            ("dexp", #"{"value": 1.5e300, "type": "DOUBLE"}"#),
            ("dneg0", #"{"value": -0.0, "type": "DOUBLE"}"#),
            ("dnan", #"{"value": "nan", "type": "DOUBLE"}"#),
            ("dinf", #"{"value": "-inf", "type": "DOUBLE"}"#),
            ("b", #"{"value": true, "type": "BOOLEAN"}"#),
            ("t", #"{"value": 1700000000123, "type": "TIMESTAMP"}"#),
            ("y", #"{"value": "AAECA/8=", "type": "BYTES"}"#),
            ("r", #"{"value": {"recordName": "f1", "action": "DELETE_SELF"}, "type": "REFERENCE"}"#),
            ("l", #"{"value": {"latitude": 48.8566, "longitude": 2.3522}, "type": "LOCATION"}"#),
            ("sl", #"{"value": ["a", "b"], "type": "STRING_LIST"}"#),
            ("il", #"{"value": [1, -2, 3], "type": "INT64_LIST"}"#),
            ("dl", #"{"value": [1.5, "+inf"], "type": "DOUBLE_LIST"}"#),
            ("bl", #"{"value": [true, false], "type": "BOOLEAN_LIST"}"#),
            ("tl", #"{"value": [0, 1700000000000], "type": "TIMESTAMP_LIST"}"#),
            ("yl", #"{"value": ["", "/w=="], "type": "BYTES_LIST"}"#),
            ("rl", #"{"value": [{"recordName": "f1", "zoneID": {"zoneName": "Notes"}, "action": "NONE"}], "type": "REFERENCE_LIST"}"#),
            ("ll", #"{"value": [{"latitude": 0, "longitude": -180}], "type": "LOCATION_LIST"}"#),
            ("e", #"{"value": [], "type": "LIST"}"#),
            ("n", #"{"value": [{"value": ["x"], "type": "STRING_LIST"}, {"value": [], "type": "LIST"}], "type": "LIST"}"#),
        ]
        let body = fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
        let saved = try await client.json(
            "records/modify", #"{"saves": [{"recordName": "all", "zoneID": {"zoneName": "Notes"}, "recordType": "Kinds", "fields": {\#(body)}}]}"#)
        let savedRecord = try #require((saved["saved"] as? [[String: Any]])?.first)
        #expect(savedRecord["serverErrorCode"] == nil, "\(savedRecord)")

        let answer = try await client.post("records/lookup", #"{"records": [{"recordName": "all", "zoneID": {"zoneName": "Notes"}}]}"#)
        let record = try #require((try Self.object(answer.body)["records"] as? [[String: Any]])?.first)
        #expect(record["recordType"] as? String == "Kinds")
        #expect(record["recordName"] as? String == "all")
        #expect((record["zoneID"] as? [String: Any])?["zoneName"] as? String == "Notes")
        #expect((record["created"] as? [String: Any])?["timestamp"] is NSNumber)
        #expect((record["modified"] as? [String: Any])?["timestamp"] is NSNumber)
        let returned = try Self.fields(record)
        #expect(Set(returned.keys) == Set(fields.map(\.0)))
        for (key, sent) in fields {
            var expected = try Self.object(sent)
            if key == "r" {
                // A reference sent without its zone is in the record's zone, and says so.
                expected["value"] = ["recordName": "f1", "zoneID": ["zoneName": "Notes"], "action": "DELETE_SELF"]
            }
            let got = try #require(returned[key])
            #expect(try Self.canonical(got) == Self.canonical(expected), "\(key): sent \(sent), got \(got)")
        }
        // What JSONSerialization's numbers hide: the exact text.
        #expect(answer.body.contains(#""value":9223372036854775807,"type":"INT64""#))
        #expect(answer.body.contains(#""value":-9223372036854775808,"type":"INT64""#))
        #expect(answer.body.contains(#""value":-0.0,"type":"DOUBLE""#))
        #expect(answer.body.contains(#""value":0.1,"type":"DOUBLE""#))
        #expect(answer.body.contains(#""value":1700000000123,"type":"TIMESTAMP""#))
        try await client.stop()
    }

    // MARK: The save rule

    @Test(
        "a save without changedKeys writes every field it sends, keeps the ones it does not send; a stale tag changes nothing",
        arguments: ServerStorage.allCases)
    func saveWritesWhatItSends(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let created = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"title": {"value": "Milk", "type": "STRING"}, "body": {"value": "2 litres", "type": "STRING"}}}]}"#)
        let first = try #require((created["saved"] as? [[String: Any]])?.first)
        let tag = try Self.tag(first)

        // What any REST client sends: the tag and the new value, no changedKeys.
        let updated = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "\#(tag)", "fields": {"title": {"value": "Bread", "type": "STRING"}}}]}"#)
        let second = try #require((updated["saved"] as? [[String: Any]])?.first)
        #expect(try Self.string(second, "title") == "Bread")
        let stored = try await client.lookup("n1")
        #expect(try Self.string(stored, "title") == "Bread", "the sent value was dropped: \(stored)")
        #expect(try Self.string(stored, "body") == "2 litres", "a key the save did not send was lost")
        #expect(try Self.tag(stored) == Self.tag(second) && Self.tag(stored) != tag)

        // The old tag is stale now: 409 CONFLICT with the three records, and nothing written.
        let stale = try await client.post(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "\#(tag)", "fields": {"title": {"value": "Eggs", "type": "STRING"}}}]}"#)
        #expect(stale.status == 422 || stale.status == 409, "\(stale.body)")
        let error = try Self.object(stale.body)
        let conflict = try #require((error["partialErrors"] as? [[String: Any]])?.first ?? error)
        #expect(conflict["serverErrorCode"] as? String == "CONFLICT", "\(stale.body)")
        #expect(conflict["recordName"] as? String == "n1")
        #expect(try Self.string(try #require(conflict["serverRecord"] as? [String: Any]), "title") == "Bread")
        #expect(try Self.string(try #require(conflict["clientRecord"] as? [String: Any]), "title") == "Eggs")
        #expect(try Self.string(try #require(conflict["ancestorRecord"] as? [String: Any]), "title") == "Milk")
        #expect(try Self.string(try await client.lookup("n1"), "title") == "Bread")
        try await client.stop()
    }

    @Test(
        "with changedKeys exactly those keys are written: a listed key absent from fields is removed; a null field is removed",
        arguments: ServerStorage.allCases)
    func changedKeysRule(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let created = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"a": {"value": "1", "type": "STRING"}, "b": {"value": "2", "type": "STRING"}, "c": {"value": "3", "type": "STRING"}}}]}"#)
        let tag = try Self.tag(try #require((created["saved"] as? [[String: Any]])?.first))
        let updated = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "\#(tag)", "changedKeys": ["a", "b"], "fields": {"a": {"value": "one", "type": "STRING"}}}]}"#)
        let record = try #require((updated["saved"] as? [[String: Any]])?.first)
        #expect(try Self.string(record, "a") == "one")
        #expect(try Self.fields(record)["b"] == nil, "a listed key absent from fields is removed")
        #expect(try Self.string(record, "c") == "3")

        let nulled = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "\#(try Self.tag(record))", "fields": {"c": null}}]}"#)
        let after = try #require((nulled["saved"] as? [[String: Any]])?.first)
        #expect(try Self.fields(after).keys.sorted() == ["a"])
        #expect(try Self.fields(try await client.lookup("n1")).keys.sorted() == ["a"])
        try await client.stop()
    }

    @Test(
        "savePolicy changedKeys writes over a stale tag; allKeys writes every field and may change the type",
        arguments: ServerStorage.allCases)
    func policies(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        _ = try await client.json(
            "records/modify",
            #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"a": {"value": 1, "type": "INT64"}, "b": {"value": 2, "type": "INT64"}}}]}"#)
        let forced = try await client.json(
            "records/modify",
            #"{"savePolicy": "changedKeys", "saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "recordChangeTag": "stale", "fields": {"a": {"value": 10, "type": "INT64"}}}]}"#)
        let record = try #require((forced["saved"] as? [[String: Any]])?.first)
        #expect(try Self.fields(record)["a"]?["value"] as? Int == 10 && Self.fields(record)["b"]?["value"] as? Int == 2)
        let replaced = try await client.json(
            "records/modify",
            #"{"savePolicy": "allKeys", "saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Memo", "fields": {"b": {"value": 20, "type": "INT64"}}}]}"#)
        let memo = try #require((replaced["saved"] as? [[String: Any]])?.first)
        #expect(memo["recordType"] as? String == "Memo")
        #expect(try Self.fields(memo)["b"]?["value"] as? Int == 20 && Self.fields(memo)["a"]?["value"] as? Int == 10)
        try await client.stop()
    }

    // MARK: Every endpoint

    @Test(
        "lookup, query with filterBy, sortBy and a continuation, delete: CloudKit Web Services' bodies",
        arguments: ServerStorage.allCases)
    func queryAndDelete(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let saves = (0..<3).map {
            #"{"recordName": "n\#($0)", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"title": {"value": "Buy \#($0)", "type": "STRING"}, "rank": {"value": \#(10 - $0), "type": "INT64"}}}"#
        }
        _ = try await client.json("records/modify", #"{"saves": [\#(saves.joined(separator: ","))]}"#)
        let query = #"{"recordType": "Note", "filterBy": [{"fieldName": "title", "comparator": "BEGINS_WITH", "fieldValue": {"value": "Buy", "type": "STRING"}}], "sortBy": [{"fieldName": "rank", "ascending": true}]}"#
        let page = try await client.json("records/query", #"{"query": \#(query), "zoneID": {"zoneName": "Notes"}, "resultsLimit": 2, "desiredKeys": ["title"]}"#)
        let records = try #require(page["records"] as? [[String: Any]])
        #expect(records.map { $0["recordName"] as? String } == ["n2", "n1"])
        #expect(try Self.fields(records[0]).keys.sorted() == ["title"])
        let marker = try #require(page["continuationMarker"] as? String)
        let next = try await client.json("records/query", #"{"continuationMarker": "\#(marker)", "resultsLimit": 2}"#)
        #expect((next["records"] as? [[String: Any]])?.map { $0["recordName"] as? String } == ["n0"])
        #expect(next["continuationMarker"] == nil)

        let deleted = try await client.json(
            "records/modify", #"{"deletes": [{"recordName": "n0", "zoneID": {"zoneName": "Notes"}}, {"recordName": "gone", "zoneID": {"zoneName": "Notes"}}], "atomic": false}"#)
        let results = try #require(deleted["deleted"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["recordName"] as? String == "n0" && results[0]["deleted"] as? Bool == true)
        #expect(results[1]["recordName"] as? String == "gone" && results[1]["serverErrorCode"] as? String == "NOT_FOUND")
        let missing = try await client.lookup("n0")
        #expect(missing["serverErrorCode"] as? String == "NOT_FOUND" && missing["recordName"] as? String == "n0")
        try await client.stop()
    }

    @Test("zone and database changes by token, with deletions, moreComing and the client change token", arguments: ServerStorage.allCases)
    func changes(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let database = try await client.json("changes/database", "{}")
        #expect((database["changedZones"] as? [[String: Any]])?.contains { $0["zoneName"] as? String == "Notes" } == true)
        let databaseToken = try #require(database["syncToken"] as? String)
        #expect(database["moreComing"] as? Bool == false)

        _ = try await client.json(
            "records/modify",
            #"{"clientChangeToken": "AQID", "saves": [{"recordName": "a", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {}}, {"recordName": "b", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {}}]}"#)
        _ = try await client.json("records/modify", #"{"deletes": [{"recordName": "b", "zoneID": {"zoneName": "Notes"}}]}"#)
        let first = try await client.json("changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "resultsLimit": 1}]}"#)
        let zone = try #require((first["zones"] as? [[String: Any]])?.first)
        #expect((zone["records"] as? [[String: Any]])?.count == 1)
        #expect(zone["moreComing"] as? Bool == true)
        let token = try #require(zone["syncToken"] as? String)
        let rest = try await client.json("changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "syncToken": "\#(token)"}]}"#)
        let tail = try #require((rest["zones"] as? [[String: Any]])?.first)
        #expect(tail["moreComing"] as? Bool == false)
        let deletions = try #require(tail["deletions"] as? [[String: Any]])
        #expect(deletions.map { $0["recordName"] as? String } == ["b"] && deletions.first?["recordType"] as? String == "Note")
        #expect((first["zones"] as? [[String: Any]])?.first?["clientChangeToken"] as? String == "AQID" || tail["clientChangeToken"] as? String == "AQID")

        let again = try await client.json("changes/database", #"{"syncToken": "\#(databaseToken)"}"#)
        #expect((again["changedZones"] as? [[String: Any]])?.map { $0["zoneName"] as? String } == ["Notes"])

        let unknown = try await client.json("changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Nowhere"}}]}"#)
        let failed = try #require((unknown["zones"] as? [[String: Any]])?.first)
        #expect((failed["error"] as? [String: Any])?["serverErrorCode"] as? String == "ZONE_NOT_FOUND")
        try await client.stop()
    }

    @Test("zones: list and delete; subscriptions of each type: create, list, delete", arguments: ServerStorage.allCases)
    func zonesAndSubscriptions(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let zones = try Self.object(try await client.get("zones/list").body)
        let notes = try #require((zones["zones"] as? [[String: Any]])?.first { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String == "Notes" })
        #expect(notes["syncToken"] is String && notes["atomic"] as? Bool == true)

        let query = #"{"recordType": "Note", "filterBy": [{"fieldName": "pinned", "comparator": "EQUALS", "fieldValue": {"value": true, "type": "BOOLEAN"}}]}"#
        let saved = try await client.json(
            "subscriptions/modify",
            #"{"operations": [{"operationType": "create", "subscription": {"subscriptionID": "all", "subscriptionType": "database"}}, {"operationType": "create", "subscription": {"subscriptionID": "notes", "subscriptionType": "zone", "zoneID": {"zoneName": "Notes"}}}, {"operationType": "update", "subscription": {"subscriptionID": "pinned", "subscriptionType": "query", "query": \#(query), "zoneID": {"zoneName": "Notes"}, "firesOn": ["create", "delete"]}}]}"#)
        let results = try #require(saved["subscriptions"] as? [[String: Any]])
        #expect(results.map { $0["subscriptionID"] as? String } == ["all", "notes", "pinned"])
        #expect(results.allSatisfy { $0["subscription"] != nil })
        let listed = try Self.object(try await client.get("subscriptions/list").body)
        let subscriptions = try #require(listed["subscriptions"] as? [[String: Any]])
        let pinned = try #require(subscriptions.first { $0["subscriptionID"] as? String == "pinned" })
        #expect(pinned["subscriptionType"] as? String == "query" && pinned["firesOn"] as? [String] == ["create", "delete"])
        #expect(((pinned["query"] as? [String: Any])?["filterBy"] as? [[String: Any]])?.first?["comparator"] as? String == "EQUALS")

        let removed = try await client.json("subscriptions/modify", #"{"operations": [{"operationType": "delete", "subscriptionID": "all"}, {"operationType": "delete", "subscriptionID": "none"}]}"#)
        let outcomes = try #require(removed["subscriptions"] as? [[String: Any]])
        #expect(outcomes[0]["deleted"] as? Bool == true)
        #expect((outcomes[1]["error"] as? [String: Any])?["serverErrorCode"] as? String == "NOT_FOUND")

        let dropped = try await client.json("zones/modify", #"{"operations": [{"operationType": "delete", "zoneID": {"zoneName": "Notes"}}]}"#)
        #expect((dropped["zones"] as? [[String: Any]])?.first?["deleted"] as? Bool == true)
        try await client.stop()
    }

    @Test("a subscription's notifications arrive as Server-Sent Events with a plain JSON data line", arguments: ServerStorage.allCases)
    func notifications(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        _ = try await client.json(
            "subscriptions/modify",
            #"{"operations": [{"operationType": "create", "subscription": {"subscriptionID": "notes", "subscriptionType": "zone", "zoneID": {"zoneName": "Notes"}}}]}"#)
        var request = HTTPClientRequest(url: client.server.address("/v1/databases/notes/subscriptions/notes/notifications"))
        request.headers.add(name: "Authorization", value: "Bearer \(client.token)")
        let response = try await TestServer.rawClient.execute(request, timeout: .seconds(600))
        #expect(response.status == .ok)
        var text = ""
        var saved = false
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if !saved, text.contains("event: ready") {
                saved = true
                _ = try await client.json("records/modify", #"{"saves": [{"recordName": "n1", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {}}]}"#)
            }
            if text.contains("event: notification\ndata: ") && text.hasSuffix("\n\n") { break }
        }
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: {\"subscriptionID\":\"notes\",\"zoneIDs\"") })
        let event = try Self.object(String(line.dropFirst("data: ".count)))
        #expect((event["zoneIDs"] as? [[String: Any]])?.first?["zoneName"] as? String == "Notes")
        #expect(event["zoneDeleted"] as? Bool == false)
        try Self.checkPlain(text)
        try await client.stop()
    }

    // MARK: Pages and compression

    @Test(
        "'as many as possible' ends a page at the byte budget with moreComing; the pages chain to every change once",
        arguments: ServerStorage.allCases)
    func byteBudget(storage: ServerStorage) async throws {
        let client = try await Client.start(storage) { $0.maximumPageBytes = 8 * 1024 }
        let text = String(repeating: "x", count: 500)
        for batch in 0..<4 {
            let saves = (0..<25).map {
                #"{"recordName": "n\#(batch * 25 + $0)", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"text": {"value": "\#(text)", "type": "STRING"}}}"#
            }
            _ = try await client.json("records/modify", #"{"saves": [\#(saves.joined(separator: ","))]}"#)
        }
        var names: [String] = []
        var token: String?
        var pages = 0
        while true {
            let from = token.map { #", "syncToken": "\#($0)""# } ?? ""
            let answer = try await client.json("changes/zone", #"{"zones": [{"zoneID": {"zoneName": "Notes"}, "resultsLimit": 0\#(from)}]}"#)
            let zone = try #require((answer["zones"] as? [[String: Any]])?.first)
            let records = try #require(zone["records"] as? [[String: Any]])
            #expect(!records.isEmpty && records.count < 40, "a page of \(records.count) records is not bounded by 8 KiB")
            names += records.compactMap { $0["recordName"] as? String }
            token = zone["syncToken"] as? String
            pages += 1
            if zone["moreComing"] as? Bool != true { break }
            #expect(pages < 100)
        }
        #expect(pages > 1)
        #expect(names.sorted() == (0..<100).map { "n\($0)" }.sorted())
        try await client.stop()
    }

    @Test(
        "an answer is gzip'd when the request accepts gzip and is not small; it inflates to the plain answer",
        arguments: ServerStorage.allCases)
    func gzip(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let saves = (0..<50).map { #"{"recordName": "n\#($0)", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {"text": {"value": "Buy milk and bread \#($0)", "type": "STRING"}}}"#  }
        _ = try await client.json("records/modify", #"{"saves": [\#(saves.joined(separator: ","))]}"#)
        let body = #"{"zones": [{"zoneID": {"zoneName": "Notes"}}]}"#
        func post(_ encoding: String?) async throws -> (encoding: String?, body: ByteBuffer) {
            var request = HTTPClientRequest(url: client.server.address("/v1/databases/notes/changes/zone"))
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(client.token)")
            if let encoding { request.headers.add(name: "Accept-Encoding", value: encoding) }
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await TestServer.rawClient.execute(request, timeout: .seconds(600))
            return (response.headers["Content-Encoding"].first, try await response.body.collect(upTo: 16 << 20))
        }
        let plain = try await post(nil)
        #expect(plain.encoding == nil)
        let plainText = String(buffer: plain.body)
        let gzipped = try await post("br;q=1.0, gzip;q=0.8")
        #expect(gzipped.encoding == "gzip")
        var compressed = gzipped.body
        #expect(compressed.readableBytes * 3 < plainText.utf8.count, "gzip saved too little: \(compressed.readableBytes) of \(plainText.utf8.count)")
        let inflated = try compressed.decompress(with: .gzip())
        #expect(String(buffer: inflated) == plainText)

        let refused = try await post("gzip;q=0")
        #expect(refused.encoding == nil && String(buffer: refused.body) == plainText)
        let small = try await client.server.raw(.GET, "/v1/databases/notes/zones/list", token: client.token, headers: [("Accept-Encoding", "gzip")])
        #expect(small.header("Content-Encoding") == nil, "a small answer is sent as it is")
        try await client.stop()
    }

    // MARK: Errors

    @Test("an atomic modify with one bad item writes nothing: PARTIAL_FAILURE naming each item", arguments: ServerStorage.allCases)
    func partialFailure(storage: ServerStorage) async throws {
        let client = try await Client.start(storage)
        let answer = try await client.post(
            "records/modify",
            #"{"saves": [{"recordName": "ok", "zoneID": {"zoneName": "Notes"}, "recordType": "Note", "fields": {}}, {"recordName": "bad", "zoneID": {"zoneName": "Notes"}, "recordType": "9Note", "fields": {}}]}"#)
        #expect(answer.status == 422, "\(answer.body)")
        let error = try Self.object(answer.body)
        #expect(error["serverErrorCode"] as? String == "PARTIAL_FAILURE")
        let items = try #require(error["partialErrors"] as? [[String: Any]])
        let codes = Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["recordName"] as? String).map { ($0, item["serverErrorCode"] as? String) } })
        #expect(codes == ["ok": "ATOMIC_ERROR", "bad": "BAD_REQUEST"])
        #expect(try await client.lookup("ok")["serverErrorCode"] as? String == "NOT_FOUND")
        try await client.stop()
    }

    @Test(
        "a body that is not JSON, or not the shape, is 400 BAD_REQUEST naming the key path, and writes nothing",
        arguments: ServerStorage.allCases, [
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {"t": {"value": 1, "type": "NUMBER"}}}]}"#, "saves[0].fields.t.type"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {"t": {"value": 1.5, "type": "INT64"}}}]}"#, "saves[0].fields.t.value"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {"t": {"value": "2024", "type": "TIMESTAMP"}}}]}"#, "saves[0].fields.t.value"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {"t": {"type": "STRING"}}}]}"#, "saves[0].fields.t"),
            (#"{"saves": [{"recordName": "x", "fields": {}}]}"#, "saves[0]"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {"t": {"value": {"recordName": "f", "action": "MAYBE"}, "type": "REFERENCE"}}}]}"#, "saves[0].fields.t.value.action"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {}}], "savePolicy": "always"}"#, "savePolicy"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {}}]"#, "not JSON"),
            (#"{"saves": [{"recordName": "x", "recordType": "Note", "fields": {}, "fields": {}}]}"#, "twice"),
        ])
    func badBodies(storage: ServerStorage, bad: (body: String, named: String)) async throws {
        let (body, named) = bad
        let client = try await Client.start(storage)
        let answer = try await client.post("records/modify", body)
        #expect(answer.status == 400, "\(answer.body)")
        let error = try Self.object(answer.body)
        #expect(error["serverErrorCode"] as? String == "BAD_REQUEST")
        #expect((error["reason"] as? String)?.contains(named) == true, "the reason does not name \(named): \(error["reason"] ?? "")")
        #expect(try await client.lookup("x")["serverErrorCode"] as? String == "NOT_FOUND")
        try await client.stop()
    }
}
