/// A check of every record of a batch whose verdict the log's batch cache keeps with the batch,
/// so that a batch read again from the cache is not checked again: SQLite does not check a page
/// it holds in its cache each time it reads it either.
///
/// A reader that checks what it reads beyond the log's own checks (the store checks that each
/// saved value decodes) passes its check's type to
/// ``Partition/forEachRecordInPlace(from:to:cachedWith:_:)``. The first read of a cached batch
/// runs the check over all of the batch's records; the reads after it learn that every record
/// passed, or that some did not, without running it. A cached batch's bytes never change, so
/// the verdict holds as long as the batch is kept.
package protocol CachedRecordCheck {
    /// Whether `record` passes. It must depend on nothing but the record's bytes and offset:
    /// its verdict is reused for any later read of the same batch.
    static func passes(_ record: BorrowedLogRecord) -> Bool
}
