import Foundation
import Testing
@testable import StorageKit

/// `MappedArray` reads its elements in place from a mapped file, never writes the file, and
/// behaves like `Array` once it changes: copies are independent, growing keeps every element.
// Serialized: one test switches huge pages off for the process while another checks they are used.
@Suite(.serialized) struct MappedArrayTests {
    /// A file holding `values` as they lie in memory, mapped.
    private static func mapped(_ values: [UInt64]) throws -> (MappedFile, path: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)").path
        try values.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        return (try MappedFile(path: path), path)
    }

    @Test("elements are read from the file in place, and writing one changes the array, not the file")
    func readsInPlaceWritesPrivately() throws {
        let values: [UInt64] = (0..<1_000).map { $0 &* 0x9E37_79B9_7F4A_7C15 }
        let (file, path) = try Self.mapped(values)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var array = try #require(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(file.bytes)))
        #expect(array.isMapped)
        #expect(Array(array) == values)
        array[500] = 7
        array.remove(at: 0)
        #expect(array.count == 999 && array[499] == 7 && array[0] == values[1])
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(onDisk == values.withUnsafeBytes { [UInt8]($0) }, "the file is unchanged")
    }

    @Test("a large array lives in a 2 MiB-aligned mapping of its own and behaves like a small one")
    func largeArraysOnHugePages() throws {
        var array = MappedArray<UInt64>()
        let count = (1 << 20) + 1  // just past 8 MiB: grows through large mappings of 4, 8 and 16 MiB
        for index in 0..<count { array.append(UInt64(index) &* 3) }
        let aligned = array.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) % (2 << 20) == 0 }
        #expect(aligned, "huge pages need 2 MiB alignment")
        var copy = array
        copy[count - 1] = 1
        copy.append(5)
        #expect(array.count == count && array[count - 1] == UInt64(count - 1) &* 3, "copies are independent")
        #expect(copy.count == count + 1 && copy[count - 1] == 1 && copy[count] == 5)
        #expect(array.elementsEqual((0..<count).lazy.map { UInt64($0) &* 3 }))
        let zeros = MappedArray<UInt32>(repeating: 0, count: 2 << 20)
        #expect(zeros.count == 2 << 20 && zeros.allSatisfy { $0 == 0 })
        // A large array of zeros is left as the fresh mapping gives it; any other value is written.
        let sevens = MappedArray<UInt32>(repeating: 7, count: 2 << 20)
        #expect(sevens.count == 2 << 20 && sevens.allSatisfy { $0 == 7 })
        var grown = zeros
        grown.append(9)
        #expect(grown.count == (2 << 20) + 1 && grown.dropLast().allSatisfy { $0 == 0 } && grown.last == 9)
    }

    @Test("a mapping grows by moving its pages: the bytes are kept, the rest is zeros, the start stays 2 MiB-aligned")
    func mappingGrowsByMovingPages() throws {
        let old = try #require(HugePageAllocation.allocate(bytes: 4 << 20))
        let words = old.bytes / 8
        let oldWords = old.pointer.bindMemory(to: UInt64.self, capacity: words)
        for index in 0..<words { oldWords[index] = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 }
        let grown = try #require(HugePageAllocation.grow(old.pointer, bytes: old.bytes, to: 10 << 20))
        defer { HugePageAllocation.deallocate(grown.pointer, bytes: grown.bytes) }
        #expect(grown.bytes >= 10 << 20 && Int(bitPattern: grown.pointer) % (2 << 20) == 0)
        let grownWords = grown.pointer.bindMemory(to: UInt64.self, capacity: grown.bytes / 8)
        #expect((0..<words).allSatisfy { grownWords[$0] == UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }, "every byte moved")
        #expect((words..<grown.bytes / 8).allSatisfy { grownWords[$0] == 0 }, "the new part is zeros")
        grownWords[grown.bytes / 8 - 1] = 1
        #expect(grownWords[grown.bytes / 8 - 1] == 1)
    }

    @Test("an array held alone grows through its own mappings without losing an element; a copy taken before keeps its own")
    func largeArrayGrowsInPlaceOfItsCopy() throws {
        var array = MappedArray<UInt32>()
        for index in 0..<(1 << 20) { array.append(UInt32(index)) }  // 4 MiB: its own mapping
        let before = array
        for index in (1 << 20)..<(5 << 20) { array.append(UInt32(truncatingIfNeeded: index) &* 7) }  // through 8 and 16 MiB, then more
        #expect(before.count == 1 << 20 && before.elementsEqual((0..<(1 << 20)).lazy.map { UInt32($0) }))
        #expect(array.count == 5 << 20)
        #expect(array.prefix(1 << 20).elementsEqual((0..<(1 << 20)).lazy.map { UInt32($0) }))
        #expect(array.dropFirst(1 << 20).elementsEqual(((1 << 20)..<(5 << 20)).lazy.map { UInt32(truncatingIfNeeded: $0) &* 7 }))
        array.removeLast()
        array[0] = 42
        #expect(before[0] == 0 && array[0] == 42)
    }

    @Test("with huge pages switched off, a large array takes malloc's memory and behaves the same")
    func largeArraysWithoutHugePages() throws {
        HugePageAllocation.isEnabled = false
        defer { HugePageAllocation.isEnabled = true }
        #expect(HugePageAllocation.allocate(bytes: 8 << 20) == nil)
        var array = MappedArray<UInt64>()
        let count = (1 << 20) + 1
        for index in 0..<count { array.append(UInt64(index) &* 3) }
        var copy = array
        copy[count - 1] = 1
        #expect(array[count - 1] == UInt64(count - 1) &* 3 && copy[count - 1] == 1, "copies are independent")
        #expect(array.elementsEqual((0..<count).lazy.map { UInt64($0) &* 3 }))
        let zeros = MappedArray<UInt32>(repeating: 0, count: 2 << 20)
        #expect(zeros.count == 2 << 20 && zeros.allSatisfy { $0 == 0 })
    }

    @Test("an array made over the same bytes as another, then dropped, leaves the other's changes alone")
    func overlappingArrays() throws {
        let values = (0..<4_096).map { UInt64($0) }
        let (file, path) = try Self.mapped(values)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var first = try #require(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(file.bytes)))
        for index in stride(from: 0, to: first.count, by: 512) { first[index] = 999_999 }
        do {
            var second = try #require(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(file.bytes)))
            second.append(1)  // moves to the heap: its mapped storage is released
            #expect(second.count == 4_097)
        }
        for index in first.indices {
            #expect(first[index] == (index % 512 == 0 ? 999_999 : UInt64(index)))
        }
    }

    @Test("a copy is independent of the array it was copied from, mapped or not")
    func copiesAreIndependent() throws {
        let (file, path) = try Self.mapped([1, 2, 3, 4])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = try #require(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(file.bytes)))
        var copy = original
        copy[0] = 100
        copy.insert(50, at: 2)
        #expect(Array(original) == [1, 2, 3, 4])
        #expect(Array(copy) == [100, 2, 50, 3, 4])
        var second = copy
        second.append(9)
        second.removeLast()
        second.removeLast()
        #expect(Array(copy) == [100, 2, 50, 3, 4])
        #expect(Array(second) == [100, 2, 50, 3])
    }

    @Test("appending past the mapped elements moves them to the heap, keeping them all")
    func growingMovesToTheHeap() throws {
        let values = (0..<600).map { UInt64($0) }
        let (file, path) = try Self.mapped(values)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var array = try #require(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(file.bytes)))
        #expect(array.capacity == 600)
        array.append(600)
        #expect(!array.isMapped)
        #expect(array.capacity > 601)
        [601, 602].withUnsafeBufferPointer { array.append(contentsOf: $0) }
        #expect(Array(array) == (0...602).map { UInt64($0) })
    }

    @Test("appending into the room a mapped array was given keeps it mapped and leaves the file; past the room, it moves")
    func appendingIntoRoom() throws {
        let values = (0..<600).map { UInt64($0) } + [UInt64](repeating: 0, count: 100)
        let (file, path) = try Self.mapped(values)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = UnsafeRawBufferPointer(file.bytes)
        #expect(MappedArray<UInt64>(mapping: file, bytes: bytes, count: 701) == nil, "more elements than the bytes hold")
        var array = try #require(MappedArray<UInt64>(mapping: file, bytes: bytes, count: 600))
        #expect(array.count == 600 && array.capacity == 700)
        for value in 600..<699 { array.append(UInt64(value) * 10) }
        #expect(array.isMapped, "the appends went into the room")
        let copy = array
        array.append(6_990)
        #expect(!array.isMapped, "an append to an array a copy shares moves it, as any change does")
        #expect(copy.isMapped && copy.count == 699)
        array.append(7_000)
        let expected: [UInt64] = (0..<600).map { UInt64($0) } + (600..<700).map { UInt64($0) * 10 } + [7_000]
        #expect(Array(array) == expected)
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(onDisk == values.withUnsafeBytes { [UInt8]($0) }, "the file is unchanged")
    }

    @Test("bytes that are not whole, aligned elements of the mapping are refused")
    func refusesBadBytes() throws {
        let (file, path) = try Self.mapped([1, 2, 3])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = UnsafeRawBufferPointer(file.bytes)
        #expect(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<12])) == nil, "not a whole number")
        #expect(MappedArray<UInt64>(mapping: file, bytes: UnsafeRawBufferPointer(rebasing: bytes[4..<20])) == nil, "misaligned")
        let outside = [UInt64](repeating: 0, count: 2)
        outside.withUnsafeBytes { #expect(MappedArray<UInt64>(mapping: file, bytes: $0) == nil, "not in the mapping") }
        #expect(MappedArray<UInt32>(mapping: file, bytes: UnsafeRawBufferPointer(rebasing: bytes[4..<12]))?.count == 2)
    }

    @Test("an empty file cannot be mapped: a typed error, not a crash")
    func emptyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: StorageError.self) { try MappedFile(path: path) }
    }

    @Test("a durable file written piece by piece holds every piece; a failed write leaves the old file")
    func durableStreamingWrite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let big = [UInt8](repeating: 0xAB, count: 3 << 20)
        try DurableFile.write(to: path) { file in
            try file.write([1, 2, 3])
            try file.pad(toMultipleOf: 64)
            try file.write(big)
            try file.write([4])
        }
        let expected = [1, 2, 3] + [UInt8](repeating: 0, count: 61) + big + [4]
        #expect(try DurableFile.read(path) == expected)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try DurableFile.write(to: path) { file in
                try file.write([9, 9, 9])
                throw Refused()
            }
        }
        #expect(try DurableFile.read(path) == expected)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}
