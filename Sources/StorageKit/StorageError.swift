/// The toolkit's errors: a failed system call, an LZ4 frame that cannot be decoded, a frame that
/// decodes to more than allowed. The product modules turn them into their own errors at their
/// edge (`StorageError(_:)` in RecordLog), so no toolkit type reaches a package API.
package enum StorageError: Error, Sendable, Equatable {
    /// A system call failed. `errno` is the C error number.
    case io(operation: String, path: String, errno: Int32)
    /// An LZ4 frame that cannot be decoded.
    case malformedFrame(reason: String)
    /// Decompressing would produce more than the allowed number of bytes.
    case decompressedSizeExceeded(limit: Int)
}

extension StorageError: CustomStringConvertible {
    package var description: String {
        switch self {
        case .io(let operation, let path, let code):
            "\(operation) failed on \(path): \(SystemErrorText.message(code)) (errno \(code))"
        case .malformedFrame(let reason):
            "not a valid LZ4 frame: \(reason)"
        case .decompressedSizeExceeded(let limit):
            "a frame decompresses to more than \(limit) bytes"
        }
    }
}
