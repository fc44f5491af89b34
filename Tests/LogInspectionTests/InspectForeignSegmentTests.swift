import Foundation
import LogInspection
import Testing

/// The foreign segment dumps to exactly what kafka-python wrote (Fixtures/kafka-python/expected.json).
@Suite struct InspectForeignSegmentTests {
    @Test func everyRecordMatchesKafkaPythonsExpectation() throws {
        let expectedData = try Data(contentsOf: URL(fileURLWithPath: InspectFixtures.path("kafka-python/expected.json")))
        let expected = try #require(try JSONSerialization.jsonObject(with: expectedData) as? [[String: Any]])
        let lines = try InspectFixtures.dumpLines(InspectFixtures.kafkaSegment)
        #expect(lines.count == expected.count)
        for (line, want) in zip(lines, expected) {
            let got = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(got["offset"] as? Int == want["offset"] as? Int)
            #expect(got["timestamp"] as? Int == want["timestamp"] as? Int)
            let key = (got["key"] as? String).map { Data($0.utf8).base64EncodedString() } ?? got["keyBase64"] as? String
            #expect(key == want["key"] as? String)
            #expect(got["value"] as? String == want["value"] as? String)
            #expect(got["event"] as? String == (want["value"] is NSNull ? "delete" : "save"))
            let headers = (got["headers"] as? [[String: Any]]) ?? []
            let wantHeaders = (want["headers"] as? [[String: Any]]) ?? []
            #expect(headers.map { $0["key"] as? String } == wantHeaders.map { $0["key"] as? String })
            #expect(headers.map { $0["value"] as? String } == wantHeaders.map { $0["value"] as? String })
        }
    }
}
