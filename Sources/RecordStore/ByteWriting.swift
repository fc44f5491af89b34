import RecordLog

// Appending the codec's strings to a byte buffer; its integers and varints use RecordLog's
// writers (appendUnsignedVarint, appendVarlong, appendInteger).
extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `string`, straight from its storage when it is contiguous.
    @inline(__always)
    mutating func appendUTF8(_ string: String) {
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
        if appended == nil { append(contentsOf: string.utf8) }
    }
}
