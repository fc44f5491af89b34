import Foundation
import StorageKit
import Testing

@Suite struct FileSystemTests {
    @Test("a directory whose parents do not exist is made with them (a store under a fresh ~/.local/share)")
    func makesMissingParents() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("FileSystemTests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/share/deeper/store"
        try FileSystem.makeDirectory(store, durably: true)
        #expect(FileSystem.isDirectory(store))
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        // Made again: nothing to do.
        try FileSystem.makeDirectory(store, durably: true)
        // A parent that is a file is an error, not a loop.
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        #expect(throws: (any Error).self) { try FileSystem.makeDirectory(root + "/file/store") }
    }
}
