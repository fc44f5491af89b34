import Foundation
import ReliabilityHarness
import StorageKit
import Testing

/// The corruption sweep's short form: a small store written by the harness's workload (three
/// zones, their segments and indexes, a checkpoint with the key index snapshot), one flipped byte at a time across every file — each
/// small file whole, the others at 16 positions — and after each flip the store either opens with
/// exactly its prior state or refuses with a typed error. `reliability corrupt` flips every byte.
@Suite struct CorruptionSweepTests {
    @Test func everyFlippedByteGivesThePriorStateOrAClearError() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let model = try await HarnessStore.writeClosed(store, steps: 30, of: Workload(seed: 31))

        let sweep = try await CorruptionSweep(store: store)
        #expect(sweep.expected == model)
        var silent: [CorruptionSweep.Flip] = []
        var flips = 0
        for file in sweep.files {
            // Small files (meta, names, offsets) whole; the others at 16 positions spread over them.
            let stride = file.bytes.count <= CorruptionSweep.wholeFileBytes ? 1 : max(1, file.bytes.count / 16)
            for position in Swift.stride(from: 0, to: file.bytes.count, by: stride) {
                let flip = try await sweep.flip(file.path, at: position)
                flips += 1
                if case .silentlyDifferent = flip.outcome { silent.append(flip) }
            }
        }
        #expect(flips > 200)
        #expect(silent.isEmpty, "flips that opened to a different state: \(silent.prefix(10))")
        // Each flip was put back: the store is byte for byte what it was.
        #expect(try StoreImage(of: store).files.map(\.bytes) == sweep.files.map(\.bytes))
    }

    /// Shards 0/N … N-1/N of a sweep make each of its flips exactly once, and share them evenly.
    @Test(arguments: [1, 2, 3, 7])
    func shardsPartitionTheFlips(_ count: Int) throws {
        let sizes: [(path: String, count: Int)] = [("a", 25), ("b", 1_000), ("c", 0), ("d", 257), ("e", 256), ("f", 70_001)]
        for stride in [1, 32] {
            let whole = CorruptionSweep.plan(sizes: sizes, stride: stride)
            let flips = whole.flatMap { file in file.positions.map { "\(file.path)@\($0)" } }
            #expect(Set(flips).count == flips.count)
            var seen: [String] = []
            for index in 0..<count {
                let shard = try #require(CorruptionSweep.Shard("\(index)/\(count)"))
                let part = CorruptionSweep.plan(sizes: sizes, stride: stride, shard: shard)
                #expect(part.map(\.path) == sizes.map(\.path))
                let mine = part.flatMap { file in file.positions.map { "\(file.path)@\($0)" } }
                #expect(abs(mine.count - flips.count / count) <= 1)
                seen += mine
            }
            #expect(seen.sorted() == flips.sorted())
        }
        // Small files whole whatever the stride; larger ones every stride-th byte from the first.
        let strided = CorruptionSweep.plan(sizes: sizes, stride: 32)
        #expect(strided.map(\.positions.count) == [25, 32, 0, 9, 256, 2_188])
    }

    @Test func aShardIsWrittenIOverN() {
        #expect(CorruptionSweep.Shard("1/2") != nil)
        #expect(CorruptionSweep.Shard("0/1") == .whole)
        for wrong in ["2/2", "-1/2", "1/0", "1", "1/2/3", "a/b", ""] { #expect(CorruptionSweep.Shard(wrong) == nil, "\(wrong)") }
    }
}

extension CorruptionSweepTests {
    /// What the sweep relies on between flips: whatever an open did to the files — a byte
    /// changed, a file cut or grown, a file or directory created, a file removed — `restore`
    /// undoes, and says what it undid.
    @Test func restorePutsBackEveryChange() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Image-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        try FileSystem.makeDirectory(store + "/zones/a")
        try FileSystem.makeDirectory(store + "/empty")
        let files = ["meta": [UInt8](repeating: 1, count: 25), "zones/a/0.log": (0..<5_000).map { UInt8($0 % 251) }, "zones/a/name": Array("a".utf8)]
        for (path, bytes) in files { try OpenFile(path: store + "/" + path, writable: true, create: true).write(bytes, at: 0) }
        _ = try OpenFile(path: store + "/.lock", writable: true, create: true)
        let image = try StoreImage(of: store)
        #expect(image.files.map(\.path) == ["meta", "zones/a/0.log", "zones/a/name"])
        #expect(try image.restore(into: store).isEmpty)

        try OpenFile(path: store + "/zones/a/0.log", writable: true).write([0xFF], at: 4_321)
        try OpenFile(path: store + "/meta", writable: true).truncate(to: 3)
        try OpenFile(path: store + "/zones/a/name", writable: true).write([0, 0], at: 1)
        try OpenFile(path: store + "/zones/a/0.index", writable: true, create: true).write([7], at: 0)
        try FileSystem.makeDirectory(store + "/lost+found/a")
        try OpenFile(path: store + "/lost+found/a/0.log", writable: true, create: true).write([7], at: 0)
        try FileSystem.removeTree(store + "/empty")
        #expect(try image.restore(into: store) == [
            "empty/", "lost+found/", "lost+found/a/", "lost+found/a/0.log", "meta", "zones/a/0.index", "zones/a/0.log", "zones/a/name"])
        let again = try StoreImage(of: store)
        #expect(again.files.map(\.path) == image.files.map(\.path))
        #expect(again.files.map(\.bytes) == image.files.map(\.bytes))
        #expect(again.directories == image.directories)
        #expect(FileSystem.exists(store + "/.lock"))
        #expect(try image.restore(into: store).isEmpty)
    }
}

extension CorruptionSweepTests {
    /// Found by the stride-1 sweep of the 150-step store (RELIABILITY.md): a flip in bytes 1–6 of
    /// a sealed segment's first batch — its base offset, which no CRC covers — opened for writing,
    /// and the zone read as empty: the paged fetch read that batch alone on a cache miss, took its
    /// base offset past the zone's end, and stopped. A read that starts at a segment's start now
    /// checks that batch's base offset against the segment's, as the recovery scan does.
    @Test func aFlippedBaseOffsetInASealedSegmentIsRefused() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        try await HarnessStore.writeClosed(store, steps: 150, of: Workload(seed: 31))
        let sweep = try await CorruptionSweep(store: store)
        let segments = sweep.files.map(\.path).filter { $0.hasPrefix("zones/_defaultZone/") && $0.hasSuffix(".log") }
        // The zone's first segment is sealed: a rolled one follows it.
        try #require(segments.count >= 2)
        for position in 0..<8 {
            let flip = try await sweep.flip(segments[0], at: position)
            guard case .refused(let reason) = flip.outcome else {
                Issue.record("\(flip)")
                continue
            }
            #expect(reason.contains("corrupt batch"), "\(flip)")
        }
    }
}

extension CorruptionSweepTests {
    static let viewSnapshot = "snapshots/view-\(ItemsView.name).snapshot"

    /// The harness's stores have a view snapshot (JSON and its CRC, FORMAT.md §12), and every
    /// open the sweep judges checks the registered view against the log: a flipped byte of the
    /// snapshot — its JSON or its CRC — gives the prior state, the view rebuilt from the log,
    /// or a typed error.
    @Test func aFlippedByteOfTheViewSnapshotGivesThePriorState() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        try await HarnessStore.writeClosed(store, steps: 30, of: Workload(seed: 31))
        let sweep = try await CorruptionSweep(store: store)
        let snapshot = try #require(sweep.image.file(Self.viewSnapshot), "the checkpoint wrote the view's snapshot").bytes
        try #require(snapshot.count > 1_000)
        let positions = Array(stride(from: 0, to: snapshot.count, by: snapshot.count / 64)) + Array(snapshot.count - 4..<snapshot.count)
        for position in positions {
            let flip = try await sweep.flip(Self.viewSnapshot, at: position)
            if case .silentlyDifferent = flip.outcome { Issue.record("\(flip)") }
        }
    }

    /// What the view check is for: a snapshot that decodes to another view — here one record
    /// left out, the CRC made to match — is a view that differs from the log, and the harness
    /// says so rather than counting the open as sound.
    @Test func aViewThatDiffersFromTheLogIsFound() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("Sweep-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let model = try await HarnessStore.writeClosed(store, steps: 30, of: Workload(seed: 31))
        let path = store + "/" + Self.viewSnapshot
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(bytes.dropLast(4))) as? [String: Any])
        var view = try #require(json["view"] as? [String: Any])
        var zones = try #require(view["zones"] as? [String: [String: Any]])
        let zone = try #require(model.zones.first { !$0.value.isEmpty })
        let name = try #require(zone.value.keys.sorted().first)
        try #require(zones[zone.key]?.removeValue(forKey: name) != nil)
        view["zones"] = zones
        json["view"] = view
        let forged = Array(try JSONSerialization.data(withJSONObject: json, options: .sortedKeys))
        var withCRC = forged
        withCRC.appendInteger(CRC32C.checksum(forged))
        try Data(withCRC).write(to: URL(fileURLWithPath: path))
        do {
            _ = try await HarnessStore.recoverAndRead(store)
            Issue.record("the forged view was not found")
        } catch HarnessError.viewMismatch(let difference) {
            #expect(difference.contains(name), "\(difference)")
        }
    }
}
