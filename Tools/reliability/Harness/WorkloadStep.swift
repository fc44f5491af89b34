/// One commit of the harness's workload, as the expected-state model sees it.
package enum WorkloadStep: Equatable, Sendable {
    /// New records, in one atomic commit (one record, or a large batch).
    case save(zone: String, items: [String: StoreModel.Item])
    /// An existing record changed through its change tag (`ifServerRecordUnchanged`).
    case edit(zone: String, name: String, item: StoreModel.Item)
    /// Existing records deleted, in one commit.
    case delete(zone: String, names: [String])
    case createZone(String)
    /// A zone deleted with every record in it.
    case deleteZone(String)
    /// A checkpoint written (the key index and views' snapshots); the model does not change.
    case checkpoint
    /// A zone's log compacted, deletes dropped at once (a tombstone retention of 0); the model
    /// does not change.
    case compact(zone: String)
}
