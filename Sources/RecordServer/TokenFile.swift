import Foundation
import StorageKit

/// The root's `tokens` file: one line per database, `NAME SHA256-HEX`, and nothing else — no
/// token is ever written to disk. Replaced atomically (temporary file, fsync, rename, fsync of
/// the directory), mode 0600.
struct TokenFile: Equatable {
    /// Each database's token digest, by database name.
    var digests: [String: [UInt8]] = [:]

    static let fileName = "tokens"

    /// Reads the file; a root without one has no databases yet.
    ///
    /// - Throws: `ServerSetupError.damagedTokenFile` when a line is not `NAME HEX`.
    static func read(root: String) throws -> TokenFile {
        let path = FileSystem.join(root, fileName)
        guard FileManager.default.fileExists(atPath: path) else { return TokenFile() }
        let text = String(decoding: try FileSystem.readAll(path), as: UTF8.self)
        var file = TokenFile()
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let digest = Self.bytes(hex: parts[1]), digest.count == 32,
                DatabaseName.isValid(String(parts[0]))
            else {
                throw ServerSetupError.damagedTokenFile(path: path, line: number + 1)
            }
            file.digests[String(parts[0])] = digest
        }
        return file
    }

    /// Writes the file atomically and durably.
    func write(root: String) throws {
        let text = digests.keys.sorted().map { "\($0) \(Self.hex(digests[$0] ?? []))\n" }.joined()
        try FileSystem.writeAtomically(to: FileSystem.join(root, Self.fileName), directory: root) { file in
            fchmod(file.descriptor, 0o600)
            try file.write(Array(text.utf8), at: 0)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
