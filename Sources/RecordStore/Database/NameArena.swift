import Foundation
import StorageKit

/// The record names of a `KeyIndex`, by slot: UTF-8 bytes back to back in pages, and one 8-byte
/// reference per slot. No `String` per name, so a million names cost their bytes and 8 more each,
/// and a checkpoint's names are read in place (page 0 and the references may be a mapped
/// snapshot's, ``MappedArray``s).
///
/// A name is never moved alone: clearing a slot counts its bytes as garbage, and the arena
/// rewrites its live names once garbage outweighs them (and at every checkpoint).
struct NameArena: Sendable {
    /// Pages after the first start at this size; a longer name gets a page of its own.
    static let pageSize = 1 << 20

    /// Slot → `page << 48 | offset << 16 | length` of its name; 0 (the empty name) for a free slot.
    private(set) var refs = MappedArray<UInt64>()
    private var pages: [MappedArray<UInt8>] = []
    /// Bytes of names in use, and of names cleared but still taking room.
    private(set) var liveBytes = 0
    private var garbageBytes = 0

    init() {}

    /// The arena of a snapshot: `bytes` as page 0, `refs` into it, `liveBytes` of them in use.
    /// Reads neither: a reference is checked against its page when it is read.
    init?(refs: MappedArray<UInt64>, bytes: MappedArray<UInt8>, liveBytes: Int) {
        guard liveBytes >= 0, liveBytes <= bytes.count else { return nil }
        self.refs = refs
        self.pages = [bytes]
        self.liveBytes = liveBytes
        self.garbageBytes = bytes.count - liveBytes
    }

    var count: Int { refs.count }

    static func parts(_ ref: UInt64) -> (page: Int, offset: Int, length: Int) {
        (Int(ref >> 48), Int(ref >> 16 & 0xFFFF_FFFF), Int(ref & 0xFFFF))
    }

    /// Calls `body` with the UTF-8 of the name in `slot` (empty for a free or unknown slot, or
    /// a damaged snapshot's reference outside its page).
    func withName<Result>(_ slot: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let (page, offset, length) = refs.indices.contains(slot) ? Self.parts(refs[slot]) : (0, 0, 0)
        guard length > 0, pages.indices.contains(page), offset + length <= pages[page].count else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try pages[page].withUnsafeBufferPointer { try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[offset..<(offset + length)])) }
    }

    /// The name in `slot`.
    func name(_ slot: Int) -> String {
        withName(slot) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the name in `slot` is `utf8` (false for a slot out of range — even for the empty
    /// name, which a slot out of range would otherwise read as: a damaged snapshot's table may
    /// name such a slot, and its caller indexes the entries with it).
    func matches(_ slot: Int32, _ utf8: UnsafeRawBufferPointer) -> Bool {
        guard refs.indices.contains(Int(slot)) else { return false }
        return withName(Int(slot)) { name in
            guard name.count == utf8.count else { return false }
            guard let stored = name.baseAddress, let sought = utf8.baseAddress else { return true }
            return memcmp(stored, sought, utf8.count) == 0
        }
    }

    /// Adds a slot holding `utf8`.
    mutating func append(_ utf8: UnsafeRawBufferPointer) {
        refs.append(0)
        set(refs.count - 1, to: utf8)
    }

    /// Puts `utf8` in `slot`, a free one.
    mutating func set(_ slot: Int, to utf8: UnsafeRawBufferPointer) {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return }
        if pages.last.map({ $0.capacity - $0.count < utf8.count || $0.isMapped }) ?? true {
            var page = MappedArray<UInt8>()
            page.reserveCapacity(max(Self.pageSize, utf8.count))
            pages.append(page)
        }
        let page = pages.count - 1
        let offset = pages[page].count
        pages[page].append(contentsOf: UnsafeBufferPointer(start: source.assumingMemoryBound(to: UInt8.self), count: utf8.count))
        refs[slot] = UInt64(page) << 48 | UInt64(offset) << 16 | UInt64(utf8.count)
        liveBytes += utf8.count
    }

    /// Frees `slot`'s name.
    mutating func clear(_ slot: Int) {
        let length = Int(refs[slot] & 0xFFFF)
        refs[slot] = 0
        // Not below zero: a damaged snapshot's count of live bytes may be less than its names.
        liveBytes = max(0, liveBytes - length)
        garbageBytes += length
        if garbageBytes > max(liveBytes, Self.pageSize) { self = compacted() }
    }

    /// The live names rewritten into fresh pages, in slot order.
    func compacted() -> NameArena {
        var arena = NameArena()
        arena.refs = MappedArray(repeating: 0, count: refs.count)
        for slot in refs.indices { withName(slot) { arena.set(slot, to: $0) } }
        return arena
    }
}
