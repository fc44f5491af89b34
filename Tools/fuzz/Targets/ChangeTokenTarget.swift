import RecordStore
import StorageKit

/// A change token, as every change fetch decodes the token a client hands back. Each input is
/// tried as given, and again as a token body of this store with its CRC-32C appended, so that
/// the fuzzer gets past the store ID and the checksum into the entries. A token that is accepted
/// must encode back to exactly its bytes.
enum ChangeTokenTarget {
    static let storeID: [UInt8] = Array(0..<16)

    static func run(_ input: [UInt8]) {
        decode(input)
        // Magic, version and kind (6 bytes), then this store's ID, then the rest of the input.
        guard input.count >= 6 else { return }
        var body = Array(input[0..<6]) + storeID + input.dropFirst(6 + min(16, input.count - 6))
        let crc = CRC32C.checksum(body)
        body += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        decode(body)
    }

    static func accepts(_ input: [UInt8]) -> Bool {
        UntrustedBytes.decodeChangeToken(input, storeID: storeID) != nil
    }

    private static func decode(_ bytes: [UInt8]) {
        guard let decoded = UntrustedBytes.decodeChangeToken(bytes, storeID: storeID) else { return }
        require(decoded.roundTrips, "an accepted token of zones \(decoded.zones) encodes to other bytes")
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        [
            ("zone", UntrustedBytes.changeToken([("Notes", 0, 17)], database: false, storeID: storeID)),
            ("database", UntrustedBytes.changeToken([("Notes", 0, 17), ("Café", 12, 3), ("_defaultZone", 1, 0)], database: true, storeID: storeID)),
            ("database-empty", UntrustedBytes.changeToken([], database: true, storeID: storeID)),
        ]
    }
}
