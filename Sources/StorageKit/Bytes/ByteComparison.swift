#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension UnsafeRawBufferPointer {
    /// Whether both hold the same bytes: up to 16 in two loads each, longer ones with `memcmp`;
    /// the store's typed buffers compare through it too.
    @inlinable
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard let base = baseAddress, let otherBase = other.baseAddress else { return true }
        // Record names and field keys are mostly this short, and a call to memcmp cost more
        // than their comparison (1 % of a change fetch, paired in one process). Two loads that
        // may overlap cover every byte; below 4, the first, middle and last bytes are all of them.
        switch count {
        case 0: return true
        case 1..<4:
            return base.load(as: UInt8.self) == otherBase.load(as: UInt8.self)
                && base.load(fromByteOffset: count >> 1, as: UInt8.self) == otherBase.load(fromByteOffset: count >> 1, as: UInt8.self)
                && base.load(fromByteOffset: count - 1, as: UInt8.self) == otherBase.load(fromByteOffset: count - 1, as: UInt8.self)
        case 4..<8:
            return base.loadUnaligned(as: UInt32.self) == otherBase.loadUnaligned(as: UInt32.self)
                && base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == otherBase.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 8...16:
            return base.loadUnaligned(as: UInt64.self) == otherBase.loadUnaligned(as: UInt64.self)
                && base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == otherBase.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        default:
            return memcmp(base, otherBase, count) == 0
        }
    }
}
