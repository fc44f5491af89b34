import RecordLog

extension ReplayStore {
    /// Runs a read of `zone`'s log, turning the log's errors into `ReplayError.unreadable` and
    /// letting a `ReplayError` thrown by the caller's closure through unchanged.
    func reading<Value>(_ zone: String, _ body: () throws -> Value) throws(ReplayError) -> Value {
        do {
            return try body()
        } catch let error as ReplayError {
            throw error
        } catch let error as LogError {
            throw ReplayError.unreadable(zone: zone, reason: error.description)
        } catch {
            throw ReplayError.unreadable(zone: zone, reason: "\(error)")
        }
    }

    /// The exclusive end of the events stamped at or before `time`: the first offset stamped after it.
    func offset(after time: Int64, in partition: Partition) throws(ReplayError) -> Int64 {
        guard time < Int64.max else { return partition.endOffset }
        return try reading(partition.name) { try partition.offset(forTimestamp: time + 1) }
    }

    /// The commit (batch) that `offset` falls strictly inside, as its first and last offsets.
    func commit(splitAt offset: Int64, in partition: Partition) throws(ReplayError) -> ClosedRange<Int64>? {
        guard offset > partition.startOffset, offset < partition.endOffset else { return nil }
        let batch = try reading(partition.name) { try partition.batches(from: offset, maxBytes: 1).first }
        guard let header = batch?.header, header.baseOffset < offset else { return nil }
        return header.baseOffset...header.lastOffset
    }
}
