import Foundation
@testable import RecordClient
import RecordStore
import RecordWire
import Testing

/// The wire's pieces on their own: error bodies, the SSE parser, retry delays.
@Suite struct WireTests {
    @Test("every RecordStoreError code has its own serverErrorCode and comes back as itself", arguments: RecordStoreError.Code.allCases)
    func errorCodesRoundTrip(code: RecordStoreError.Code) throws {
        let zone = ZoneID(zoneName: "Z")
        let id = RecordID(recordName: "r", zoneID: zone)
        var record = Record(recordType: "T", recordID: id)
        record["x"] = .double(.nan)
        let inner = RecordStoreError(.batchRequestFailed, "other item", recordID: id)
        let error = RecordStoreError(
            code, "message", recordID: id, zoneID: zone, serverRecord: record, clientRecord: record, ancestorRecord: nil,
            partialErrors: [id: inner])
        let body = ErrorBody(error, requestID: "req")
        let decoded = try WireCoding.decoder().decode(ErrorBody.self, from: WireCoding.encoder().encode(body))
        #expect(decoded == body)
        let back = try #require(decoded.recordStoreError)
        #expect(back.code == code && back.message == "message" && back.recordID == id && back.zoneID == zone)
        #expect(back.serverRecord == record && back.clientRecord == record && back.ancestorRecord == nil)
        #expect(back.partialErrors == [id: inner])
        #expect(ServerErrorCode(code).recordStoreCode == code)
        #expect((400..<600).contains(ServerErrorCode(code).httpStatus))
    }

    @Test("the server's own codes are 4xx or 503, and map to no store error")
    func serverCodes() {
        for code in ServerErrorCode.allCases where code.recordStoreCode == nil {
            #expect((400..<500).contains(code.httpStatus) || code.httpStatus == 503)
            #expect(ErrorBody(serverErrorCode: code, reason: "r").recordStoreError == nil)
        }
        #expect(Set(ServerErrorCode.allCases.map(\.rawValue)).count == ServerErrorCode.allCases.count)
    }

    @Test("the SSE parser splits events across chunks, joins data lines, skips comments, takes CRLF and CR")
    func serverSentEvents() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(": keep-alive\n\nevent: ready\nda".utf8)).isEmpty)
        #expect(parser.feed(Array("ta: {}\n\n".utf8)) == [.init(name: "ready", data: "{}")])
        #expect(parser.feed(Array("event: notification\r\ndata: a\r\ndata: b\r\n\r\ndata: c\r\r".utf8)) == [
            .init(name: "notification", data: "a\nb"), .init(name: "message", data: "c"),
        ])
    }

    @Test("retry delays grow, are capped, and never undercut retryAfter")
    func retryDelays() {
        let policy = RetryPolicy(maximumAttempts: 10, initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        for attempt in 1...10 {
            let delay = policy.delay(afterAttempt: attempt, retryAfter: nil)
            #expect(delay <= .seconds(1) && delay >= .milliseconds(50))
            #expect(policy.delay(afterAttempt: attempt, retryAfter: 3) >= .seconds(3))
        }
    }
}
