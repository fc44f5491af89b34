import Foundation
import RecordStore

// A server change token (`syncToken`) as base64 text of its bytes (FORMAT.md gives them).
extension ServerChangeToken {
    package func write(to writer: inout JSONWriter) {
        writer.base64(data)
    }

    package init(wire: WireReader) throws {
        self.init(data: Data(try wire.base64()))
    }
}
