import RecordLog

/// The memory a commit encodes into, kept between commits (in the database's state, under its
/// lock): the batch builder's record buffer, the encoded batch's bytes, the saved records'
/// encoded values (``CommitValues``) and the encoded event headers. A commit of 1000 notes needs
/// about half a megabyte of each buffer; allocating them anew cost page faults on every commit.
/// A buffer that a large commit grew past ``maximumKeptBytes`` is dropped rather than kept.
struct CommitBuffers: Sendable {
    /// The largest buffer kept for the next commit.
    static let maximumKeptBytes = 4 << 20

    private var builder = RecordBatchBuilder()
    private var batchBytes: [UInt8] = []
    /// The values of earlier commits: a view still folding a commit in the background holds its
    /// values, so a few are kept, each refilled once no fold holds it.
    private var values: [CommitValues] = []
    /// The encoded event headers of the last record type, which the next commit most likely
    /// saves again: a commit of one record encodes only its change tag's header.
    var headers = EventHeaderCache()

    /// The kept builder, empty; give it back with ``recycle(_:)``.
    mutating func takeBuilder() -> RecordBatchBuilder {
        var taken = RecordBatchBuilder()
        swap(&taken, &builder)
        taken.removeAll()
        return taken
    }

    /// Keeps `builder` for the next commit unless it grew too large.
    mutating func recycle(_ builder: consuming RecordBatchBuilder) {
        if builder.capacity <= Self.maximumKeptBytes { self.builder = builder }
    }

    /// How many value buffers are kept: a writer runs at most one commit ahead of each view's
    /// fold (``Database/publish(_:)``), so three usually cover the commit being encoded, the one
    /// being folded and one queued behind it. Many concurrent writers can have more folds in
    /// flight; a commit that finds every kept buffer held takes a fresh one, not kept.
    static let keptValues = 3

    /// Kept values that no view's fold holds any more, emptied; else new ones, kept for later
    /// commits while fewer than ``keptValues`` are.
    mutating func takeValues() -> CommitValues {
        for index in values.indices where isKnownUniquelyReferenced(&values[index]) {
            if values[index].capacity > Self.maximumKeptBytes {
                values[index] = CommitValues()
            } else {
                values[index].removeAll()
            }
            return values[index]
        }
        let fresh = CommitValues()
        if values.count < Self.keptValues { values.append(fresh) }
        return fresh
    }

    /// The kept batch buffer, for `RecordBatchBuilder.encode(compression:reusing:)`; empty when
    /// none is kept (or a batch taken earlier in this commit has it).
    mutating func takeBatchBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &batchBytes)
        return taken
    }

    /// Keeps a written batch's bytes for the next commit unless they grew too large.
    mutating func recycle(_ batch: consuming EncodedBatch) {
        let bytes = batch.bytes
        if bytes.capacity <= Self.maximumKeptBytes, bytes.capacity > batchBytes.capacity { batchBytes = bytes }
    }
}
