// What must hold of a segment between operations, checked after each one in debug builds only
// (swift-collections' `_checkInvariants` style): a release build compiles the calls away.
extension LogSegment {
    #if DEBUG
    /// Traps when the segment's state is inconsistent. Checks the newest index entries only, so
    /// that an append stays O(1): entries are only ever appended, each checked as it arrives, and
    /// index files loaded from disk are checked whole as they are parsed.
    func checkInvariants() {
        precondition(size >= 0 && allocated >= size, "segment \(path): size \(size), allocated \(allocated)")
        precondition(nextOffset >= baseOffset, "segment \(path): next offset \(nextOffset) below base \(baseOffset)")
        precondition(size > 0 || firstTimestamp == nil, "segment \(path): empty, with a first timestamp")
        precondition(indexer.baseOffset == baseOffset, "segment \(path): indexer based at \(indexer.baseOffset)")
        let span = nextOffset - baseOffset
        let offsets = indexer.offsetIndex.entries.suffix(2)
        if let last = offsets.last {
            precondition(
                Int64(last.position) < size && Int64(last.relativeOffset) < span,
                "segment \(path): offset index entry \(last) beyond \(size) bytes, \(span) offsets")
            if let previous = offsets.dropLast().last {
                precondition(
                    previous.relativeOffset < last.relativeOffset && previous.position < last.position,
                    "segment \(path): offset index entries \(previous), \(last) out of order")
            }
        }
        let times = indexer.timeIndex.entries.suffix(2)
        if let last = times.last {
            precondition(
                Int64(last.relativeOffset) < span && last.timestamp <= indexer.maxTimestamp,
                "segment \(path): time index entry \(last) beyond \(span) offsets or max timestamp \(indexer.maxTimestamp)")
            if let previous = times.dropLast().last {
                precondition(
                    previous.timestamp < last.timestamp && previous.relativeOffset <= last.relativeOffset,
                    "segment \(path): time index entries \(previous), \(last) out of order")
            }
        }
    }
    #else
    @inline(__always)
    func checkInvariants() {}
    #endif
}
