import Foundation
import Testing
@testable import RecordLog

@Suite struct ZoneNameTests {
    static let longA = String(repeating: "a", count: 250)
    static let longE = String(repeating: "é", count: 80)

    static let hostileNames: [String] = [
        "/", "//", "..", ".", "...", "a/../../b", "../../etc/passwd", "\0", "\u{0}x", "x\u{0}", "a\u{0}/b",
        String(repeating: "é", count: 300), String(repeating: "x", count: 1_000), String(repeating: "/", count: 1_000),
        String(repeating: ".", count: 1_000), longA + "1", longA + "2", longE + "é", longE + "è",
        String(repeating: "%", count: 150) + "A", String(repeating: "%", count: 150) + "B",
        "🧑‍💻/📁", "🏳️‍🌈", "שלום/..", "مرحبا بالعالم", "\u{202E}gnp.exe", "~", "%2F", "%", "-", "_",
        "Notes", "notes", "NOTES", " ", "\t\n", "a b", "\\", "C:\\Windows", "*", "?", "\u{FFFF}", "\u{10FFFF}",
        "e\u{301}", "\u{E9}",  // the same é, decomposed and precomposed: different strings, different zones
    ]

    /// Names that differ only after their 150th byte, and whose escaped forms exceed 200 bytes.
    static let lateDifferences: [(String, String)] = [
        (longA + "1", longA + "2"), (longE + "é", longE + "è"),
        (String(repeating: "%", count: 150) + "A", String(repeating: "%", count: 150) + "B"),
        (String(repeating: "b", count: 160) + String(repeating: "c", count: 100), String(repeating: "b", count: 160) + String(repeating: "c", count: 101)),
    ]

    @Test("escaped names are safe single path components", arguments: hostileNames)
    func safeComponent(name: String) throws {
        let escaped = try ZoneDirectoryName.encode(name)
        #expect(!escaped.isEmpty)
        #expect(!escaped.contains("/"))
        #expect(!escaped.utf8.contains(0))
        #expect(escaped != "." && escaped != "..")
        #expect(escaped.utf8.count <= 255)
        #expect(escaped.utf8.allSatisfy { $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "%~_-".utf8.contains($0)) })
        #expect(try ZoneDirectoryName.encode(name) == escaped, "the mapping is deterministic")
    }

    @Test("distinct names get distinct directory names")
    func distinct() throws {
        let unique = Array(Set(Self.hostileNames))
        let escaped = try unique.map(ZoneDirectoryName.encode)
        #expect(Set(escaped).count == unique.count)
        for (first, second) in Self.lateDifferences {
            #expect(Array(first.utf8.prefix(150)) == Array(second.utf8.prefix(150)))
            #expect(try ZoneDirectoryName.encode(first) != ZoneDirectoryName.encode(second), "\(first.prefix(10))…")
        }
    }

    @Test("plain names stay readable")
    func plainNames() throws {
        #expect(try ZoneDirectoryName.encode("Notes") == "Notes")
        #expect(try ZoneDirectoryName.encode("my_zone-2") == "my_zone-2")
        #expect(try ZoneDirectoryName.encode("a/b") == "a%2Fb")
    }

    @Test("the empty name is refused")
    func emptyName() async throws {
        #expect(throws: LogError.invalidPartitionName("", reason: "a partition name cannot be empty")) { try ZoneDirectoryName.encode("") }
        try await withStorePath { store in
            let log = try Log(directory: store, options: fastOptions())
            #expect(throws: LogError.self) { try log.createPartition(named: "") }
            #expect(try listDirectory(store + "/zones").isEmpty)
            try log.close()
        }
    }

    @Test("partitions with hostile names live inside the store and reopen with their exact names")
    func hostileNamesInALog() async throws {
        try await withTemporaryDirectory { root in
            let store = root + "/store"
            let names = Array(Set(Self.hostileNames)).sorted()
            let log = try Log(directory: store, options: fastOptions())
            for name in names {
                var builder = RecordBatchBuilder()
                builder.append(key: "name", value: Array(name.utf8), timestamp: 1)
                #expect(try await log.createPartition(named: name).append(builder) == 0..<1, "\(name.debugDescription)")
            }
            try log.close()

            // Nothing was created outside the store, and every zone is one directory in zones/.
            #expect(try listDirectory(root) == ["store"])
            #expect(try listDirectory(store).filter { !$0.hasPrefix(".") && $0 != "recordlog.meta" && !$0.hasSuffix("checkpoint") } == ["zones"])
            let directories = try listDirectory(store + "/zones")
            #expect(directories.sorted() == (try names.map(ZoneDirectoryName.encode)).sorted())
            for directory in directories {
                var isDirectory: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: store + "/zones/" + directory, isDirectory: &isDirectory) && isDirectory.boolValue)
            }

            let reopened = try Log(directory: store, options: fastOptions())
            #expect(reopened.partitionNames == names.sorted())
            for name in names {
                let partition = try reopened.partition(named: name)
                #expect(partition.name == name)
                #expect(try partition.records(from: 0).first?.value.map(Array.init) == Array(name.utf8))
                let parent = URL(fileURLWithPath: partition.directory).deletingLastPathComponent().standardizedFileURL.path
                #expect(parent == URL(fileURLWithPath: store + "/zones").standardizedFileURL.path)
            }
            try reopened.close()
        }
    }
}
