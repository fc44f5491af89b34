import Foundation
import RecordLog
import StorageKit

/// A view's snapshot file: `snapshots/view-<name>.snapshot`, the JSON of
/// `{"zones": {"<zone>": {"incarnation": n, "offset": n}}, "view": …}` followed by the CRC-32C of
/// the JSON as 4 big-endian bytes. Anything else is ignored and the view is rebuilt by replay.
struct ViewSnapshot<View: MaterializedView>: Codable {
    typealias Position = ZonePosition

    var storeID: [UInt8]
    var zones: [String: Position]
    var view: View

    static func path(directory: String) -> String {
        Database.jsonSnapshotPath(directory: directory, name: View.name)
    }

    static func decode(_ bytes: [UInt8]) -> ViewSnapshot? {
        guard bytes.count > 4 else { return nil }
        let json = Array(bytes.dropLast(4))
        var tail = TokenBytes(bytes: bytes, position: bytes.count - 4)
        guard tail.uint32() == CRC32C.checksum(json) else { return nil }
        return try? JSONDecoder().decode(Self.self, from: Data(json))
    }

    static func encodeView(_ view: View) throws -> [UInt8] {
        Array(try JSONEncoder.sortedKeys.encode(view))
    }
}
