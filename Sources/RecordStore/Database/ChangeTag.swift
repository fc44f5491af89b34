/// Change tags: the zone's incarnation and the save event's offset, in base 36
/// (`<incarnation>-<offset>`): unique per record version, also across a zone deleted and created
/// again under the same name.
enum ChangeTag {
    /// The tag of the record version saved at `offset` in a zone of `incarnation`; the same text
    /// as `String(incarnation, radix: 36) + "-" + String(offset, radix: 36)`, formatted in
    /// place: every saved record gets one.
    static func make(incarnation: Int64, offset: Int64) -> String {
        guard incarnation >= 0, offset >= 0 else {
            return String(incarnation, radix: 36) + "-" + String(offset, radix: 36)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longest.utf8.count) { buffer in
            var end = buffer.count
            func prepend(_ value: Int64) {
                var rest = UInt64(value)
                repeat {
                    end -= 1
                    buffer[end] = digits[Int(rest % 36)]
                    rest /= 36
                } while rest > 0
            }
            prepend(offset)
            end -= 1
            buffer[end] = UInt8(ascii: "-")
            prepend(incarnation)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[end...]), as: UTF8.self)
        }
    }

    private static let digits: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// As long as any tag can be: two Int64.max in base 36 (13 digits each) and the dash.
    static let longest = String(repeating: "z", count: 27)

    /// The incarnation and offset a tag names; nil for text that is not a tag this store makes.
    static func parse(_ tag: String) -> (incarnation: Int64, offset: Int64)? {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let incarnation = Int64(parts[0], radix: 36), let offset = Int64(parts[1], radix: 36),
            incarnation >= 0, offset >= 0
        else { return nil }
        return (incarnation, offset)
    }
}
