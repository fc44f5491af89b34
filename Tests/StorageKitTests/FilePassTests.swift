import Foundation
import Testing
@testable import StorageKit

/// A `FilePass` reads a whole file in place and lets go of what it read without losing anything:
/// not the bytes, which read the same again, nor a private change another mapping of the file made.
struct FilePassTests {
    /// A file of `count` bytes of a known pattern, mapped; removed by the caller.
    private static func mapped(count: Int) throws -> (MappedFile, bytes: [UInt8], path: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pass-\(UUID().uuidString)").path
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (try MappedFile(path: path), bytes, path)
    }

    @Test("a pass reads the file's bytes, and the same bytes again after letting them go")
    func readsAgainAfterLettingGo() throws {
        let (file, bytes, path) = try Self.mapped(count: 5 * 4096 + 123)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pass = try file.pass()
        #expect(Array(pass.bytes) == bytes)
        pass.letGo(1000..<(4 * 4096 + 7))
        pass.letGo(0..<pass.bytes.count)
        #expect(Array(pass.bytes) == bytes)
        #expect(CRC32C.checksum(pass.bytes) == CRC32C.checksum(bytes))
    }

    @Test("letting a pass's pages go keeps another mapping's private change to them")
    func keepsPrivateChanges() throws {
        let (file, bytes, path) = try Self.mapped(count: 3 * 4096)
        defer { try? FileManager.default.removeItem(atPath: path) }
        file.bytes[4096 + 10] = bytes[4096 + 10] &+ 1
        let pass = try file.pass()
        #expect(Array(pass.bytes) == bytes, "the pass reads the file, not the private change")
        pass.letGo(0..<pass.bytes.count)
        #expect(file.bytes[4096 + 10] == bytes[4096 + 10] &+ 1)
        #expect(Array(pass.bytes) == bytes)
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(onDisk == bytes, "the file is unchanged")
    }
}
