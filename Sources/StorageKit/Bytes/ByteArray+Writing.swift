extension Array where Element == UInt8 {
    /// The bytes `write` writes through a pointer: it is given room for `capacity` bytes and
    /// returns how many it wrote, from the start.
    ///
    /// The room is `buffer`'s memory when its capacity is large enough (a writer that hands back
    /// the bytes of each thing it wrote writes the next without allocating); only the part of it
    /// that `buffer` had not yet used is zeroed, as a Swift array's bytes must be initialised.
    /// Otherwise it is new memory, not zeroed: `write` sets every byte it keeps.
    ///
    /// ```swift
    /// let frame = try [UInt8].writing(atMost: LZ4Frame.compressedBound(source.count), reusing: []) { room in
    ///     try LZ4Frame.compress(source, into: room)
    /// }
    /// ```
    package static func writing(
        atMost capacity: Int, reusing buffer: consuming [UInt8], _ write: (UnsafeMutableRawBufferPointer) throws -> Int
    ) rethrows -> [UInt8] {
        var bytes = buffer
        guard bytes.capacity >= capacity else {
            return try [UInt8](unsafeUninitializedCapacity: capacity) { room, count in
                count = try write(UnsafeMutableRawBufferPointer(room))
            }
        }
        if bytes.count < capacity { bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count)) }
        let written = try bytes.withUnsafeMutableBytes { room in
            try write(UnsafeMutableRawBufferPointer(rebasing: room[..<capacity]))
        }
        bytes.removeLast(bytes.count - written)
        return bytes
    }
}
