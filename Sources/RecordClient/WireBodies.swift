import Foundation
import RecordStore
import RecordWire

/// Every body ``HTTPRemoteDatabase`` writes or reads passes through here, one function per
/// direction: a request body to bytes, an answer's bytes to its body, an error answer's bytes to
/// the error body, a notification event's data to the notification. Nothing else in the client
/// knows the wire's coding.
enum WireBodies {
    /// Why an answer's bytes are not the body expected, in words a client developer can act on.
    struct Undecodable: Error, Sendable {
        var reason: String
    }

    /// The bytes of a request's body.
    static func requestBytes(_ body: any WireEncodable) -> Data {
        Data(WireJSON.encode(body))
    }

    /// The body a 200 answer's bytes hold.
    static func answer<Answer: WireDecodable>(_ type: Answer.Type, from bytes: Data) throws(Undecodable) -> Answer {
        do {
            return try WireJSON.decode(Answer.self, from: bytes)
        } catch {
            throw Undecodable(reason: "\(error)")
        }
    }

    /// The error body a failed answer's bytes hold, if they are one (a proxy's page is not).
    static func errorBody(from bytes: Data) -> ErrorBody? {
        try? WireJSON.decode(ErrorBody.self, from: bytes)
    }

    /// The notification an `event: notification`'s data holds.
    static func notification(fromEventData data: String) throws -> SubscriptionNotification {
        try WireJSON.decode(NotificationEvent.self, from: Array(data.utf8)).notification
    }
}
