import Foundation
import RecordLog
import StorageKit

/// A position in a zone's log (a zone token) or in the whole database (a database token), as
/// CloudKit's `CKServerChangeToken`: opaque, compact, and safe — it names its store, its zone and
/// the zone's incarnation, and carries a CRC, so a token from elsewhere is refused, not misread.
///
/// Store it with `Codable` (a base64 string) or as `data`; the byte layout is in FORMAT.md.
public struct ServerChangeToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token's bytes.
    public let data: Data

    /// Restores a token from its bytes; it is checked when used.
    public init(data: Data) { self.data = data }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a change token is base64 text"))
        }
        self.data = data
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data.base64EncodedString())
    }

    public var description: String { "ServerChangeToken(\(data.base64EncodedString()))" }
}

/// A token's decoded content.
enum TokenContent: Equatable {
    /// One zone's position, with the zone's name.
    struct Entry: Equatable {
        var zoneName: String
        var position: ZonePosition
    }

    /// A zone token: the position, and the zone's drop sequence (FORMAT.md §11.1) its holder's
    /// reads began at — nil when a compaction that drops deletes was under way then.
    case zone(Entry, dropStamp: Int64?)
    case database([Entry])

    static let magic: [UInt8] = Array("RLTK".utf8)
    /// Every database token, and a zone token without a drop stamp.
    static let version: UInt8 = 1
    /// A zone token with a drop stamp.
    static let stampedVersion: UInt8 = 2

    func encode(storeID: [UInt8]) -> ServerChangeToken {
        var bytes = Self.magic
        switch self {
        case .zone(let position, let stamp):
            bytes.append(stamp == nil ? Self.version : Self.stampedVersion)
            bytes.append(1)
            bytes += storeID
            Self.append(position, to: &bytes)
            if let stamp { TokenBytes.append(UInt64(bitPattern: stamp), to: &bytes) }
        case .database(let positions):
            bytes.append(Self.version)
            bytes.append(2)
            bytes += storeID
            TokenBytes.append(UInt32(positions.count), to: &bytes)
            for position in positions { Self.append(position, to: &bytes) }
        }
        TokenBytes.append(CRC32C.checksum(bytes), to: &bytes)
        return ServerChangeToken(data: Data(bytes))
    }

    private static func append(_ position: Entry, to bytes: inout [UInt8]) {
        let name = Array(position.zoneName.utf8)
        TokenBytes.append(UInt16(name.count), to: &bytes)
        bytes += name
        TokenBytes.append(UInt64(bitPattern: position.position.incarnation), to: &bytes)
        TokenBytes.append(UInt64(bitPattern: position.position.offset), to: &bytes)
    }

    /// Decodes and checks a token: its CRC, its version and that it belongs to `storeID`.
    static func decode(_ token: ServerChangeToken, storeID: [UInt8]) throws(RecordStoreError) -> TokenContent {
        let bytes = [UInt8](token.data)
        guard bytes.count >= 4 + 1 + 1 + 16 + 4, Array(bytes.prefix(4)) == magic else { throw malformed("it is not a change token") }
        let body = Array(bytes.dropLast(4))
        var reader = TokenBytes(bytes: bytes, position: bytes.count - 4)
        guard let crc = reader.uint32(), crc == CRC32C.checksum(body) else { throw malformed("its checksum does not match") }
        let stamped = bytes[4] == stampedVersion
        guard bytes[4] == version || stamped else { throw malformed("it has version \(bytes[4])") }
        guard Array(bytes[6..<22]) == storeID else {
            throw RecordStoreError(.invalidArguments, "The change token belongs to another store. Fetch changes with a nil token to start over.")
        }
        reader = TokenBytes(bytes: body, position: 22)
        let content: TokenContent
        switch bytes[5] {
        case 1:
            guard let position = reader.zonePosition() else { throw malformed("it is truncated") }
            guard stamped else {
                content = .zone(position, dropStamp: nil)
                break
            }
            guard let stamp = reader.integer(UInt64.self) else { throw malformed("it is truncated") }
            guard stamp & 1 == 0, stamp <= UInt64(Int64.max) else { throw malformed("its drop stamp \(stamp) is not one a store hands out") }
            content = .zone(position, dropStamp: Int64(stamp))
        case 2 where !stamped:
            guard let count = reader.uint32(), Int(count) <= body.count else { throw malformed("it is truncated") }
            var positions: [Entry] = []
            for _ in 0..<count {
                guard let position = reader.zonePosition() else { throw malformed("it is truncated") }
                positions.append(position)
            }
            content = .database(positions)
        default:
            throw malformed("it has an unknown kind \(bytes[5]) for its version \(bytes[4])")
        }
        guard reader.position == body.count else { throw malformed("it has trailing bytes") }
        return content
    }

    private static func malformed(_ reason: String) -> RecordStoreError {
        RecordStoreError(.invalidArguments, "The change token is malformed: \(reason). Use a token this store returned, or nil to fetch everything.")
    }
}

/// Big-endian integers for tokens, read with bounds checks.
struct TokenBytes {
    let bytes: [UInt8]
    var position: Int

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard position + size <= bytes.count else { return nil }
        var value: T = 0
        for byte in bytes[position..<(position + size)] { value = value << 8 | T(byte) }
        position += size
        return value
    }

    mutating func uint32() -> UInt32? { integer(UInt32.self) }

    mutating func zonePosition() -> TokenContent.Entry? {
        guard let length = integer(UInt16.self), position + Int(length) <= bytes.count else { return nil }
        let nameBytes = bytes[position..<(position + Int(length))]
        position += Int(length)
        guard let name = String(validating: nameBytes, as: UTF8.self),
            let incarnation = integer(UInt64.self), let offset = integer(UInt64.self)
        else { return nil }
        return .init(zoneName: name, position: ZonePosition(incarnation: Int64(bitPattern: incarnation), offset: Int64(bitPattern: offset)))
    }
}
