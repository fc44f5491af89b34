import Foundation
@testable import RecordClient
import RecordStore
import RecordWire
import Testing

/// The client's pieces on their own: the SSE parser, retry delays (the JSON's are RecordWireTests).
@Suite struct WireTests {
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
