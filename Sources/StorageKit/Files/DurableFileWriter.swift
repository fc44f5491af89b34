/// Writes a new file front to back, through a buffer, for ``DurableFile/write(to:_:)``: large
/// snapshots are written without holding them whole in memory.
package final class DurableFileWriter {
    private let file: OpenFile
    private var buffer: [UInt8] = []
    /// Bytes written so far, buffered or not: the offset of the next byte.
    package private(set) var position = 0
    private static let bufferSize = 1 << 20

    init(file: OpenFile) {
        self.file = file
        buffer.reserveCapacity(Self.bufferSize)
    }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize {
            try file.write([bytes], at: Int64(position - buffer.count))
        } else {
            buffer.append(contentsOf: bytes)
        }
        position += bytes.count
    }

    /// Appends `bytes`.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends zero bytes until ``position`` is a multiple of `alignment`.
    package func pad(toMultipleOf alignment: Int) throws {
        let padding = (alignment - position % alignment) % alignment
        if padding > 0 { try write([UInt8](repeating: 0, count: padding)) }
    }

    /// Writes out what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.write(buffer, at: Int64(position - buffer.count))
        buffer.removeAll(keepingCapacity: true)
    }
}
