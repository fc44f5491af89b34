import Foundation
import Testing
@testable import StorageKit

/// `SnapshotSections` addresses a mapped file's sections by the names of a caller's enum, and
/// reads a meta through its type, which refuses words it does not read.
@Suite struct SnapshotSectionsTests {
    enum Section: Int, SnapshotSection { case meta, lengths, text, values }

    struct Meta: SnapshotMeta {
        static let currentVersion: UInt64 = 3
        static let wordCount = 2
        var version = currentVersion
        var count: Int
        var words: [UInt64] { [version, UInt64(count)] }
        init(version: UInt64 = currentVersion, count: Int) {
            self.version = version
            self.count = count
        }
        init?(words: [UInt64]) {
            guard words.count == Self.wordCount, words[0] == Self.currentVersion else { return nil }
            count = Int(words[1])
        }
    }

    /// A file of four sections (a meta of `version`, two string sections, three uint32) mapped,
    /// and the byte ranges of its sections.
    private static func file(version: UInt64, in directory: String) throws -> (MappedFile, [Range<Int>]) {
        let parts: [[UInt8]] = [
            Meta(version: version, count: 3).words.withUnsafeBytes { Array($0) },
            [UInt32(2), 0, 3].withUnsafeBytes { Array($0) },
            Array("abxyz".utf8),
            [UInt32(7), 8, 9].withUnsafeBytes { Array($0) },
        ]
        var bytes: [UInt8] = [], ranges: [Range<Int>] = []
        for part in parts {
            ranges.append(bytes.count..<(bytes.count + part.count))
            bytes += part + [UInt8](repeating: 0, count: (8 - part.count % 8) % 8)
        }
        let path = directory + "/sections"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (try MappedFile(path: path), ranges)
    }

    private static func withDirectory(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sections-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("each named section reads as its bytes, values, strings or meta")
    func readsByName() throws {
        try Self.withDirectory { directory in
            let (mapping, ranges) = try Self.file(version: Meta.currentVersion, in: directory)
            let sections = try #require(SnapshotSections<Section>(mapping: mapping, ranges: ranges))
            #expect(sections.meta(.meta, as: Meta.self) == Meta(count: 3))
            #expect(sections.strings(lengths: .lengths, bytes: .text) == ["ab", "", "xyz"])
            #expect(sections.array(.values, of: UInt32.self).map(Array.init) == [7, 8, 9])
            #expect(sections.array(.values, count: 2, of: UInt32.self)?.count == 2)
            #expect(sections.array(.values, count: 4, of: UInt32.self) == nil, "fewer values than asked for")
            #expect(Array(sections.bytes(.text)) == Array("abxyz".utf8))
            #expect(sections.meta(.values, as: Meta.self) == nil, "not a meta's word count")
            #expect(Section.count == 4)
        }
    }

    @Test("a meta of another version is refused, and so is a part with the wrong number of sections")
    func refusesOtherVersionsAndCounts() throws {
        try Self.withDirectory { directory in
            let (mapping, ranges) = try Self.file(version: Meta.currentVersion + 1, in: directory)
            let sections = try #require(SnapshotSections<Section>(mapping: mapping, ranges: ranges))
            #expect(sections.meta(.meta, as: Meta.self) == nil)
            #expect(SnapshotSections<Section>(mapping: mapping, ranges: ranges.dropLast()) == nil)
            #expect(SnapshotSections<Section>(mapping: mapping, ranges: ranges.dropLast() + [0..<(mapping.bytes.count + 1)]) == nil)
        }
    }
}
