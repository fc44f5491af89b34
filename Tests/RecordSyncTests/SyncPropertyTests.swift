import Foundation
import RecordStore
import RecordSync
import StoreKindSupport
import TestSupport
import Testing

@Suite("Sync: random edits on several devices converge")
struct SyncPropertyTests {
    /// One device's random step.
    enum Step: CaseIterable {
        case addNote, editNote, deleteNote, addFolder, renameFolder, deleteFolder, toggleOffline, sync
    }

    @Test(
        "random edits, deletes, folder deletions, offline periods and sync orders on three devices end with every device equal to the remote",
        arguments: StoreKind.allCases, 0..<10)
    func randomHistories(remote kind: StoreKind, seed: UInt64) async throws {
        var random = SeededGenerator(seed: 0x5EED_0000 + seed)
        // Small pages on some seeds: pages of one record must converge too.
        let world = try await SyncWorld.make(remote: kind, devices: 3, resultsLimit: seed % 3 == 0 ? 1 : 50)
        defer { try? world.close() }
        var offline = Array(repeating: false, count: world.devices.count)
        var made = 0
        var history: [String] = []
        for _ in 0..<60 {
            let index = Int.random(in: 0..<world.devices.count, using: &random)
            let device = world.devices[index]
            let records = try await appRecords(device)[SyncWorld.zone] ?? [:]
            let notes = records.filter { $0.value.type == "Note" }.keys.sorted()
            let folders = records.filter { $0.value.type == "Folder" }.keys.sorted()
            let step = Step.allCases.randomElement(using: &random) ?? .sync
            history.append("\(index):\(step)")
            switch step {
            case .addNote:
                made += 1
                let parent = Bool.random(using: &random) ? folders.randomElement(using: &random) : nil
                try await device.put(note("n\(made)", "note \(made)", folder: parent))
            case .editNote:
                guard let name = notes.randomElement(using: &random) else { continue }
                let text = "edit \(Int.random(in: 0..<1000, using: &random))"
                let title = Bool.random(using: &random) ? "title \(Int.random(in: 0..<5, using: &random))" : nil
                try await device.edit(name) {
                    $0["text"] = .string(text)
                    if let title { $0["title"] = .string(title) }
                }
            case .deleteNote:
                guard let name = notes.randomElement(using: &random) else { continue }
                try await device.delete(RecordID(recordName: name, zoneID: SyncWorld.zone))
            case .addFolder:
                made += 1
                try await device.put(folder("f\(made)", "folder \(made)"))
            case .renameFolder:
                guard let name = folders.randomElement(using: &random) else { continue }
                let title = "renamed \(Int.random(in: 0..<1000, using: &random))"
                try await device.edit(name) { $0["title"] = .string(title) }
            case .deleteFolder:
                guard let name = folders.randomElement(using: &random) else { continue }
                try await device.delete(RecordID(recordName: name, zoneID: SyncWorld.zone))
            case .toggleOffline:
                offline[index].toggle()
            case .sync:
                guard !offline[index] else { continue }
                if Bool.random(using: &random) {
                    try await world.engines[index].sendChanges()
                    try await world.engines[index].fetchChanges()
                } else {
                    try await world.engines[index].fetchChanges()
                    try await world.engines[index].sendChanges()
                }
            }
        }
        try await world.syncUntilQuiet(rounds: 3)
        let remote = try await appRecords(world.remote)
        for (index, device) in world.devices.enumerated() {
            let local = try await appRecords(device)
            #expect(local == remote, "device \(index) differs from the remote after \(history)")
            #expect(try await world.engines[index].pendingChangeCount() == 0)
        }
        // The remote itself is consistent: every note's folder exists.
        for (name, record) in remote[SyncWorld.zone] ?? [:] where record.type == "Note" {
            if case .reference(let reference)? = record.fields["folder"] {
                #expect(remote[SyncWorld.zone]?[reference.recordID.recordName] != nil, "note \(name) points to a missing folder")
            }
        }
    }
}
