/// Every performance trick of the commit and replay paths and of reading a view's snapshot, each
/// with its threshold, in one place.
///
/// None of them changes a byte written or a result returned: each moves work to a second thread,
/// overlaps it with other work, or backs memory differently. Each one's reason and measurements
/// are in BENCHMARKS.md ("Figures behind the code"). Set a threshold to `.max` to switch its trick
/// off; ``off`` switches off every one, ``always`` forces every one on even for one record. The
/// test suites run with ``off``, ``standard`` and ``always`` and must pass all three ways.
///
/// A database takes the tuning current when it opens (``current``, a task-local value that tests
/// set; apps get ``standard``). Huge pages for large in-memory tables are the one trick that is
/// not a database's choice but the process's (a table grows on whichever thread folds into it):
/// their switch is `HugePageAllocation.isEnabled`, on by default.
package struct CommitTuning: Sendable, Equatable {
    /// From this many items on, a commit starts its fdatasync as soon as its batch is written,
    /// so that the sync thread's wake-up and the sync itself overlap applying the commit to the
    /// state and folding it into the views, instead of starting once the commit waits for it.
    package var earlyDurableItems: Int
    /// From this many items on, a commit is folded into each view on the view's own thread
    /// (``ViewFeed``). For a smaller commit the thread hand-offs cost more than they overlap.
    package var largeCommitItems: Int
    /// From this many saves on, a zone's saves are planned on two threads, half each.
    package var twoThreadPlanningItems: Int
    /// From this many bytes of records on, a batch is LZ4-compressed on two threads, half of its
    /// blocks each; the bytes are the same as on one.
    package var twoThreadCompressionBytes: Int
    /// From this many records on, a view's replay reads the log on a second thread while it folds
    /// (``ReplayPipeline``).
    package var pipelinedReplayRecords: Int64
    /// From this many saves on, a zone's saved records are filed into the request's
    /// ``ModifyResult`` when its ``ModifyResult/saveResults`` is first read, not by the commit:
    /// hashing each record's ID into the dictionary was 5 % of a 1000-record commit's CPU, for
    /// results bulk callers rarely read.
    package var lazySaveResultsItems: Int
    /// From this many pages of a mapped view snapshot's compressed texts read at once (a folder
    /// listed first after an open: `CompressedPages/load(_:)`), half of them are decompressed on
    /// a second thread.
    package var twoThreadDecompressionPages: Int
    /// From this many items built by one read of a view (a Notes folder's listing, through
    /// `RecordNotesManager`), the second half of them are built on a second thread.
    package var twoThreadReadItems: Int
    /// From a key index checkpoint of this many bytes on, an open reads and checks it on a
    /// second thread while the log opens (``CheckpointPrefetch``), each zone's active segment
    /// validated meanwhile.
    package var twoThreadOpenBytes: Int

    package init(
        earlyDurableItems: Int, largeCommitItems: Int, twoThreadPlanningItems: Int, twoThreadCompressionBytes: Int,
        pipelinedReplayRecords: Int64, lazySaveResultsItems: Int, twoThreadDecompressionPages: Int, twoThreadReadItems: Int,
        twoThreadOpenBytes: Int
    ) {
        self.earlyDurableItems = earlyDurableItems
        self.largeCommitItems = largeCommitItems
        self.twoThreadPlanningItems = twoThreadPlanningItems
        self.twoThreadCompressionBytes = twoThreadCompressionBytes
        self.pipelinedReplayRecords = pipelinedReplayRecords
        self.lazySaveResultsItems = lazySaveResultsItems
        self.twoThreadDecompressionPages = twoThreadDecompressionPages
        self.twoThreadReadItems = twoThreadReadItems
        self.twoThreadOpenBytes = twoThreadOpenBytes
    }

    /// The thresholds measured best on the benchmark's workloads.
    package static let standard = CommitTuning(
        earlyDurableItems: 1, largeCommitItems: 64, twoThreadPlanningItems: 256, twoThreadCompressionBytes: 256 << 10, pipelinedReplayRecords: 16_384,
        lazySaveResultsItems: 64, twoThreadDecompressionPages: 2, twoThreadReadItems: 512,
        twoThreadOpenBytes: 1 << 20)

    /// Every trick off: each commit and replay runs on the calling thread, in the plainest order.
    package static let off = CommitTuning(
        earlyDurableItems: .max, largeCommitItems: .max, twoThreadPlanningItems: .max, twoThreadCompressionBytes: .max, pipelinedReplayRecords: .max,
        lazySaveResultsItems: .max, twoThreadDecompressionPages: .max, twoThreadReadItems: .max,
        twoThreadOpenBytes: .max)

    /// Every trick on from the smallest request it can split (two saves plan on two threads; two
    /// LZ4 blocks compress on two; two snapshot pages decompress on two; a listing of two notes
    /// builds them on two; any checkpoint is read beside the log's open).
    package static let always = CommitTuning(
        earlyDurableItems: 1, largeCommitItems: 1, twoThreadPlanningItems: 2, twoThreadCompressionBytes: 0, pipelinedReplayRecords: 1,
        lazySaveResultsItems: 1, twoThreadDecompressionPages: 2, twoThreadReadItems: 2,
        twoThreadOpenBytes: 0)

    /// The tuning a database opened now takes: ``standard`` unless a test set another.
    @TaskLocal package static var current = CommitTuning.standard
}
