import Foundation
import StorageKit

/// The store's decoders of untrusted bytes, each run to its end, for the fuzz targets
/// (`Tools/fuzz`) and their regression tests: they see only `package` API, and these decoders'
/// types are the module's own. Each returns a summary that needs no internal type, and checks
/// what must hold of anything the decoder accepts.
package enum UntrustedBytes {
    /// Decodes `bytes` as a change token of the store `storeID`: the zone names it holds (one for
    /// a zone token), or nil when it is refused. A token that is accepted encodes back to exactly
    /// `bytes`; `roundTrips` says whether it did.
    package static func decodeChangeToken(_ bytes: [UInt8], storeID: [UInt8]) -> (zones: [String], roundTrips: Bool)? {
        let token = ServerChangeToken(data: Data(bytes))
        guard let content = try? TokenContent.decode(token, storeID: storeID) else { return nil }
        let names: [String]
        switch content {
        case .zone(let entry): names = [entry.zoneName]
        case .database(let entries): names = entries.map(\.zoneName)
        }
        return (names, content.encode(storeID: storeID).data == token.data)
    }

    /// The bytes of a well-formed change token: a zone token for one entry with `database` false,
    /// else a database token (for seed corpora).
    package static func changeToken(
        _ entries: [(zoneName: String, incarnation: Int64, offset: Int64)], database: Bool, storeID: [UInt8]
    ) -> [UInt8] {
        let decoded = entries.map {
            TokenContent.Entry(zoneName: $0.zoneName, position: ZonePosition(incarnation: $0.incarnation, offset: $0.offset))
        }
        let content: TokenContent = database || decoded.count != 1 ? .database(decoded) : .zone(decoded[0])
        return [UInt8](content.encode(storeID: storeID).data)
    }

    /// Reads the key index checkpoint at `path` as an open does: the number of zones and of
    /// records it holds, or nil when the file is ignored (the reason is `reject`ed).
    package static func readKeyIndexSnapshot(path: String, reject: (String) -> Void = { _ in }) -> (zones: Int, records: Int)? {
        guard let (_, zones) = KeyIndexSnapshot.read(path: path, reject: reject) else { return nil }
        return (zones.count, zones.values.reduce(0) { $0 + $1.records.count })
    }
}
