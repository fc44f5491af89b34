import CCRC32C

/// CRC-32C (Castagnoli), the checksum of Kafka's record batches.
///
/// ```swift
/// let crc = CRC32C.checksum(Array("123456789".utf8))  // 0xE306_9283
/// ```
package enum CRC32C {
    /// The CRC-32C of `bytes`, continuing from `crc` (a finished CRC of the bytes before; 0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return recordlog_crc32c_extend(crc, base, bytes.count)
    }

    /// The CRC-32C of a byte array.
    package static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The same checksum computed by the portable slicing-by-8 code, whatever the CPU offers.
    package static func portableChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return recordlog_crc32c_extend_portable(crc, base, bytes.count)
    }

    /// Whether `checksum` uses a CPU instruction (SSE4.2) on this machine.
    package static var isHardwareAccelerated: Bool { recordlog_crc32c_is_hardware_accelerated() != 0 }
}
