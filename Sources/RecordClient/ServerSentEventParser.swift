/// Splits a Server-Sent Events byte stream into events, as the HTML standard's parsing rules
/// say: lines end in LF, CRLF or CR; `event:` names the event, `data:` lines join with LF; a
/// blank line dispatches; a line starting with `:` is a comment (the server's heartbeat).
struct ServerSentEventParser {
    struct Event: Equatable {
        var name: String
        var data: String
    }

    private var line: [UInt8] = []
    private var name = ""
    private var data: [String] = []
    private var lastWasCR = false

    /// Feeds bytes; returns the events they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lastWasCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            } else {
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> Event? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer {
                name = ""
                data = []
            }
            guard !data.isEmpty else { return nil }
            return Event(name: name.isEmpty ? "message" : name, data: data.joined(separator: "\n"))
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
