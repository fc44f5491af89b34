import Foundation
import Notes

/// How the key-value peers (RocksDB, LMDB) lay Notes out in one sorted keyspace, three kinds of
/// key told apart by their first byte:
///
/// | key | value |
/// |---|---|
/// | `n` zone `0` name | the note: created, modified, sequence (Int64 little-endian), then folder, title, content (each a LEB128 length and UTF-8) |
/// | `f` folder `0` modified (8 bytes, big-endian, sign flipped) name | empty: the index on (folder, modified, name) |
/// | `s` sequence (8 bytes big-endian) | the note's primary key: "changes since" |
///
/// A save that replaces a note deletes its old index and sequence keys in the same commit, so each
/// peer reads the old value first (as SQLite's `INSERT OR REPLACE` does for its indexes).
enum KVNotes {
    static let zone = "Notes"
    static let notePrefix = UInt8(ascii: "n")
    static let folderPrefix = UInt8(ascii: "f")
    static let changePrefix = UInt8(ascii: "s")

    /// The bytes before every note's name in its primary key: `n` zone `0`.
    static let noteKeyPrefix: [UInt8] = [notePrefix] + Array(zone.utf8) + [0]

    static func noteKey(name: String) -> [UInt8] {
        var key = noteKeyPrefix
        key.append(contentsOf: name.utf8)
        return key
    }

    /// The bytes before every index key of `folder`: `f` folder `0`.
    static func folderKeyPrefix(_ folder: String) -> [UInt8] {
        var key = [folderPrefix]
        key.append(contentsOf: folder.utf8)
        key.append(0)
        return key
    }

    static func folderKey(folder: some Collection<UInt8>, modified: Int64, name: some Collection<UInt8>) -> [UInt8] {
        var key = [folderPrefix]
        key.reserveCapacity(folder.count + name.count + 10)
        key.append(contentsOf: folder)
        key.append(0)
        appendBigEndian(UInt64(bitPattern: modified) ^ (1 << 63), to: &key)
        key.append(contentsOf: name)
        return key
    }

    static func changeKey(_ sequence: Int64) -> [UInt8] {
        var key = [changePrefix]
        appendBigEndian(UInt64(bitPattern: sequence), to: &key)
        return key
    }

    /// The sequence number a change key holds, nil for another kind of key.
    static func sequence(inChangeKey key: UnsafeRawBufferPointer) -> Int64? {
        guard key.count == 9, key[0] == changePrefix else { return nil }
        var value: UInt64 = 0
        for byte in key[1...] { value = value << 8 | UInt64(byte) }
        return Int64(bitPattern: value)
    }

    /// The note's name, from an index key of a folder whose prefix is `prefixCount` bytes long.
    static func name(inFolderKey key: UnsafeRawBufferPointer, prefixCount: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: key[(prefixCount + 8)...])
    }

    /// The milliseconds since 1970 a save stamps as its note's modification time (as the SQLite peer).
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// What one saved row writes: its primary key and value, its index key, its change key.
    struct Entries {
        var noteKey: [UInt8]
        var note: [UInt8]
        var folderKey: [UInt8]
        var changeKey: [UInt8]
    }

    static func entries(_ row: Dataset.Row, sequence: Int64, modified: Int64) -> Entries {
        var note: [UInt8] = []
        note.reserveCapacity(24 + row.folder.utf8.count + row.title.utf8.count + row.content.utf8.count + 6)
        appendLittleEndian(UInt64(bitPattern: row.created), to: &note)
        appendLittleEndian(UInt64(bitPattern: modified), to: &note)
        appendLittleEndian(UInt64(bitPattern: sequence), to: &note)
        for text in [row.folder, row.title, row.content] {
            var count = text.utf8.count
            while count >= 0x80 {
                note.append(UInt8(truncatingIfNeeded: count) | 0x80)
                count >>= 7
            }
            note.append(UInt8(count))
            note.append(contentsOf: text.utf8)
        }
        return Entries(
            noteKey: noteKey(name: row.name), note: note,
            folderKey: folderKey(folder: row.folder.utf8, modified: modified, name: row.name.utf8),
            changeKey: changeKey(sequence))
    }

    /// The keys a stored note's value names besides its own: to delete when it is replaced.
    static func secondaryKeys(ofStored value: UnsafeRawBufferPointer, name: String) -> (folderKey: [UInt8], changeKey: [UInt8])? {
        guard let fields = Fields(value) else { return nil }
        return (folderKey(folder: fields.folder, modified: fields.modified, name: name.utf8), changeKey(fields.sequence))
    }

    /// A stored note decoded into the app's `Note`; nil if its bytes are short.
    static func note(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Note? {
        guard let fields = Fields(value) else { return nil }
        return Note(
            id: String(decoding: name, as: UTF8.self), folderID: String(decoding: fields.folder, as: UTF8.self),
            content: String(decoding: fields.content, as: UTF8.self),
            createdAt: Date(timeIntervalSince1970: Double(fields.created) / 1000),
            modifiedAt: Date(timeIntervalSince1970: Double(fields.modified) / 1000))
    }

    /// A stored note's fields, read in place.
    private struct Fields {
        var created: Int64
        var modified: Int64
        var sequence: Int64
        var folder: UnsafeRawBufferPointer
        var title: UnsafeRawBufferPointer
        var content: UnsafeRawBufferPointer

        init?(_ value: UnsafeRawBufferPointer) {
            guard value.count >= 24 else { return nil }
            created = Int64(littleEndian: value.loadUnaligned(fromByteOffset: 0, as: Int64.self))
            modified = Int64(littleEndian: value.loadUnaligned(fromByteOffset: 8, as: Int64.self))
            sequence = Int64(littleEndian: value.loadUnaligned(fromByteOffset: 16, as: Int64.self))
            var offset = 24
            func text() -> UnsafeRawBufferPointer? {
                var count = 0, shift = 0
                while true {
                    guard offset < value.count, shift < 63 else { return nil }
                    let byte = value[offset]
                    offset += 1
                    count |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                guard count <= value.count - offset else { return nil }
                defer { offset += count }
                return UnsafeRawBufferPointer(rebasing: value[offset..<(offset + count)])
            }
            guard let folder = text(), let title = text(), let content = text() else { return nil }
            self.folder = folder
            self.title = title
            self.content = content
        }
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func appendLittleEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, through: 56, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Whether `key` starts with `prefix`.
    static func hasPrefix(_ key: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        key.count >= prefix.count && prefix.indices.allSatisfy { key[$0] == prefix[$0] }
    }
}
