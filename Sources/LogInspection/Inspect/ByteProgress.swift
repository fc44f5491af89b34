/// Counts the segment bytes a pass over a store has read, segment after segment, and reports
/// them to a `ReplayProgressHandler` (verify's progress, and the report's verify phase).
struct ByteProgress {
    let total: Int64
    let handler: ReplayProgressHandler?
    /// The bytes of the segments already read whole.
    private var finished: Int64 = 0

    init(total: Int64, handler: ReplayProgressHandler?) {
        self.total = total
        self.handler = handler
    }

    /// The pass reached `position` in the segment being read (`size` bytes).
    func reached(_ position: Int64, of size: Int64) {
        handler?(finished + min(position, size), total)
    }

    /// The segment being read (`size` bytes) was read whole.
    mutating func finishSegment(_ size: Int64) {
        finished += size
        handler?(finished, total)
    }

    /// The pass ended.
    func finish() {
        handler?(max(finished, total), total)
    }
}
