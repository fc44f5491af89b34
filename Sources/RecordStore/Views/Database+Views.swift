import Foundation
import RecordLog
import StorageKit

extension Database {
    /// Registers a view: it is built from its snapshot and the events after it (or by replaying
    /// the whole log), then kept live on every commit.
    ///
    /// Registering the same view type again returns the same handle.
    ///
    /// - Throws: `invalidArguments` for a bad view name, or a name another view type registered.
    public func register<View: MaterializedView>(_ type: View.Type) throws -> ViewHandle<View> {
        try register(type, hooks: .none)
    }

    /// Registers a view that takes replay hints; see ``register(_:)-(View.Type)``.
    public func register<View: ReplayHintedView>(_ type: View.Type) throws -> ViewHandle<View> {
        try register(type, hooks: .hinted)
    }

    private func register<View: MaterializedView>(_ type: View.Type, hooks: ReplayHooks<View>) throws -> ViewHandle<View> {
        try checkOpen()
        try Self.validateViewName(View.name)
        // A view registered already is not read from its snapshot again (for a mapped view, a
        // check of every block of a file as large as its records).
        if let handle = try state.withLock({ try Self.registered(View.self, in: $0) }) { return handle }
        var saved = savedSnapshot(View.self)
        return try state.withLock { state in
            if let handle = try Self.registered(View.self, in: state) { return handle }
            if saved?.storeID != storeID { saved = nil }
            let positions = saved?.zones
            let (view, fromSnapshot) = try build(View.self, zones: Array(state.zones.values), from: &saved, hooks: hooks)
            let handle = ViewHandle(view, fromSnapshot: fromSnapshot)
            state.views.append(ViewSink(handle))
            if let positions, let checkpointed = state.checkpointed,
                positions == checkpointed
            {
                state.currentViewSnapshots.insert(View.name)
            }
            return handle
        }
    }

    /// The handle of `View` if it is registered already.
    /// - Throws: `invalidArguments` when another view type is registered under its name.
    private static func registered<View: MaterializedView>(_ type: View.Type, in state: State) throws -> ViewHandle<View>? {
        guard let existing = state.views.first(where: { $0.name == View.name }) else { return nil }
        guard let handle = existing.handle as? ViewHandle<View> else {
            throw RecordStoreError(
                .invalidArguments, "Another view type is registered under the name \"\(View.name)\"; give each view type its own name.")
        }
        return handle
    }

    /// The view's snapshot, read as its kind of view writes it; nil when there is none or it is
    /// not usable (logged).
    private func savedSnapshot<View: MaterializedView>(_ type: View.Type) -> ViewSnapshot<View>? {
        guard View.keepsSnapshot, let directory else { return nil }
        guard let mapped = View.self as? any MappedSnapshotView.Type else {
            return (try? DurableFile.read(ViewSnapshot<View>.path(directory: directory))).flatMap { $0 }.flatMap(ViewSnapshot<View>.decode)
        }
        let path = Self.mappedSnapshotPath(directory: directory, name: View.name)
        let snapshot = MappedViewSnapshot.open(path: path, tuning: tuning) { reason in
            logger.warning("ignoring a view snapshot: \(reason); the view is rebuilt from the log", metadata: ["path": "\(path)"])
        }
        guard let snapshot else { return nil }
        func open<Mapped: MappedSnapshotView>(_ type: Mapped.Type) -> Mapped? { Mapped(snapshot: snapshot) }
        guard let view = open(mapped) as? View else {
            logger.warning("ignoring a view snapshot the view does not read; the view is rebuilt from the log", metadata: ["path": "\(path)"])
            return nil
        }
        return ViewSnapshot(storeID: snapshot.storeID, zones: snapshot.zones, view: view)
    }

    /// Where a ``MappedSnapshotView``'s snapshot lives.
    static func mappedSnapshotPath(directory: String, name: String) -> String {
        directory + "/" + KeyIndexSnapshot.directoryName + "/view-" + name + ".mapped"
    }

    /// Where a view's JSON snapshot lives (FORMAT.md §12).
    static func jsonSnapshotPath(directory: String, name: String) -> String {
        directory + "/" + KeyIndexSnapshot.directoryName + "/view-" + name + ".snapshot"
    }

    /// The view rebuilt from scratch by replaying every zone's log — what a registered view must
    /// equal at any time. For tests and debugging; the database is not changed.
    public func rebuild<View: MaterializedView>(_ type: View.Type) throws -> View {
        try rebuild(type, hooks: .none)
    }

    /// A view that takes replay hints, rebuilt from scratch; see ``rebuild(_:)-(View.Type)``.
    public func rebuild<View: ReplayHintedView>(_ type: View.Type) throws -> View {
        try rebuild(type, hooks: .hinted)
    }

    private func rebuild<View: MaterializedView>(_ type: View.Type, hooks: ReplayHooks<View>) throws -> View {
        try checkOpen()
        let zones = state.withLock { Array($0.zones.values) }
        var none: ViewSnapshot<View>?
        return try build(View.self, zones: zones, from: &none, hooks: hooks).view
    }

    /// Folds the zones' events into a view, starting from a snapshot when it fits the logs (and
    /// then says so). The snapshot is taken, not copied: the view built is the only holder of its
    /// storage, so that changing it does not copy what a mapped snapshot holds.
    private func build<View: MaterializedView>(
        _ type: View.Type, zones: [ZoneState], from saved: inout ViewSnapshot<View>?, hooks: ReplayHooks<View>
    ) throws -> (view: View, fromSnapshot: Bool) {
        var view = View()
        var fromSnapshot = false
        var starts: [ZoneID: Int64] = [:]
        if var snapshot = saved.take() {
            let live = Dictionary(zones.map { ($0.zoneID.zoneName, $0) }, uniquingKeysWith: { first, _ in first })
            let usable = snapshot.zones.allSatisfy { name, position in
                guard let zone = live[name], zone.incarnation == position.incarnation else { return true }
                return position.offset >= zone.partition.expiryOffset && position.offset <= zone.partition.endOffset
            }
            if usable {
                swap(&view, &snapshot.view)
                fromSnapshot = true
                for (name, position) in snapshot.zones {
                    if let zone = live[name], zone.incarnation == position.incarnation {
                        starts[zone.zoneID] = max(position.offset, zone.partition.startOffset)
                    } else {
                        view.apply(.zoneDeleted(ZoneID(zoneName: name)))
                    }
                }
            }
        }
        hooks.willReplay(&view, zones.reduce(into: [:]) { counts, zone in
            counts.merge(zone.records.liveRecordsByType, uniquingKeysWith: +)
        })
        try Self.replay(
            zones, from: starts, pipelinedFrom: tuning.pipelinedReplayRecords, saved: { view.apply(saved: $0) }, other: { view.apply($0) }, upcoming: { hooks.prefetch(&view, $0) })
        hooks.didReplay(&view)
        return (view, fromSnapshot)
    }

    /// Calls `saved` with every record saved in `zones`, read in place, and `other` with the
    /// other view events, from each zone's start (else the partition's first offset), zone after
    /// zone by name. Not generic: called from `build` for any view type, it runs specialized,
    /// with no type metadata looked up per event. Replays of `minimumRecords` or more
    /// (``CommitTuning/pipelinedReplayRecords``) read on a second thread, and tell
    /// `upcoming` the id of each save a few events before it is folded.
    static func replay(
        _ zones: [ZoneState], from starts: [ZoneID: Int64], pipelinedFrom minimumRecords: Int64,
        saved: (StoredRecord) -> Void, other: (ViewEvent) -> Void, upcoming: (RecordID) -> Void = { _ in }
    ) throws {
        let zones = zones.sorted(by: { $0.zoneID.zoneName < $1.zoneID.zoneName })
        let records = zones.reduce(Int64(0)) { total, zone in
            total + zone.partition.endOffset - (starts[zone.zoneID] ?? zone.partition.startOffset)
        }
        guard records >= minimumRecords else {
            try walk(zones, from: starts, saved: { id, value in
                saved(try StoredRecord(value, recordID: id, zoneChecked: true))
                return true
            }, other: { other($0); return true })
            return
        }
        try ReplayPipeline.run(read: { first, send in
            // `chunk` is passed, not captured, by the nested function: a variable it captured
            // would be boxed and checked for exclusive access at run time, on every record.
            func handOverIfFull(_ chunk: inout ReplayChunk?) -> Bool {
                guard let full = chunk, full.isFull else { return true }
                chunk = send(full)
                return chunk != nil
            }
            var chunk: ReplayChunk? = first
            try walk(zones, from: starts, saved: { id, value in
                _ = try StoredRecord(value, recordID: id, zoneChecked: true)
                chunk?.appendSave(id, value: value)
                return handOverIfFull(&chunk)
            }, other: { event in
                chunk?.appendOther(event)
                return handOverIfFull(&chunk)
            })
            return chunk
        }, fold: { chunk in
            try chunk.fold(saved: saved, other: other, upcoming: upcoming)
        })
    }

    /// Calls `saved` with the id and value bytes (borrowed) of every record saved in `zones` and
    /// `other` with the other view events, in order, until one returns false.
    private static func walk(
        _ zones: [ZoneState], from starts: [ZoneID: Int64],
        saved: (RecordID, UnsafeRawBufferPointer) throws -> Bool, other: (ViewEvent) throws -> Bool
    ) throws {
        for zone in zones {
            var going = true
            try zone.partition.forEachRecordInPlace(from: starts[zone.zoneID] ?? zone.partition.startOffset, to: zone.partition.endOffset, cached: false) { event in
                guard let name = event.keyString else { return true }
                let id = RecordID(recordName: name, zoneID: zone.zoneID)
                switch StoredEvent.kind(of: event) {
                case .save?:
                    if let value = event.value { going = try saved(id, value) }
                case .delete?:
                    going = try other(.deleted(id, recordType: event.headerString(StoredEvent.recordTypeHeader) ?? ""))
                default:
                    break
                }
                return going
            }
            guard going else { return }
        }
    }

    /// Writes a view's JSON snapshot (FORMAT.md §12).
    static func writeJSONSnapshot(
        _ viewJSON: [UInt8], name: String, directory: String, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)]
    ) throws {
        let positions = Dictionary(zones.map { ($0.name, ["incarnation": $0.incarnation, "offset": $0.offset]) }, uniquingKeysWith: { first, _ in first })
        // Assemble the snapshot JSON around the view's own JSON, keys sorted as JSONEncoder's.
        let zonesJSON = try JSONEncoder.sortedKeys.encode(positions)
        let storeJSON = try JSONEncoder.sortedKeys.encode(storeID)
        var json = Array("{\"storeID\":".utf8) + Array(storeJSON) + Array(",\"view\":".utf8) + viewJSON
        json += Array(",\"zones\":".utf8) + Array(zonesJSON) + Array("}".utf8)
        TokenBytes.append(CRC32C.checksum(json), to: &json)
        try LogError.translating {
            try DurableFile.write(json, to: jsonSnapshotPath(directory: directory, name: name))
        }
    }

    /// Writes a mapped view's snapshot: its sections, then the footer (FORMAT.md §12).
    static func writeMappedSnapshot(
        _ view: some MappedSnapshotView, directory: String, storeID: [UInt8], zones: [(name: String, incarnation: Int64, offset: Int64)]
    ) throws {
        try LogError.translating {
            try DurableFile.write(to: mappedSnapshotPath(directory: directory, name: type(of: view).name)) { file in
                var writer = ViewSnapshotWriter(file: file)
                try view.writeSnapshot(to: &writer)
                try writer.finish(storeID: storeID, zones: zones)
            }
        }
    }

    static func validateViewName(_ name: String) throws(RecordStoreError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
        }
        guard !name.isEmpty, name.utf8.count <= 100, allowed else {
            throw RecordStoreError(.invalidArguments, "View name \"\(name)\" is invalid: use 1 to 100 letters, digits, '_' or '-'.")
        }
    }
}
