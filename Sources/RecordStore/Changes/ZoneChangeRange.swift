import RecordLog

/// The part of a zone's log one change fetch reads, and what decides whether its token may be
/// answered (FORMAT.md §11.1).
///
/// Compaction drops a delete once its retention is over, and with it every earlier event of its
/// record. A token's holder that read such a record before the drop would never learn of the
/// delete, so a token may be answered only when no delete it needs was dropped:
/// - it is at or above the zone's **expiry offset** (every dropped delete lies below it, and
///   so before anything the holder has yet to read), or
/// - its **drop stamp** — the zone's drop sequence read before its holder's first read — is
///   still the zone's drop sequence, and even: no compaction dropped a delete since the holder
///   began, so every record whose delete is gone was gone before the holder read, and it never
///   saw it. This is what lets the pages of a fetch from nil chain past the expiry offset.
///
/// Checked before the read and again after it, with the sequence read again: a compaction that
/// began dropping deletes meanwhile makes the sequence odd before it changes a segment.
struct ZoneChangeRange {
    let zone: ZoneState
    /// The first offset read.
    let from: Int64
    /// One past the last offset read.
    let end: Int64
    /// The zone's drop sequence, read before anything else of the partition.
    let sequence: Int64
    /// The token's position; nil for a fetch from nil.
    var token: ZonePosition?
    /// The token's drop stamp; nil for a fetch from nil or a token without one.
    var stamp: Int64?

    /// Whether a holder of the token may have missed a delete compaction dropped, the zone's
    /// drop sequence being `now`.
    func mayMissDroppedDelete(now: Int64) -> Bool {
        // The token's own offset, not where the read starts: below the log start, segments that
        // held dropped deletes are gone, and the read starting past them says nothing of them.
        guard let token, token.offset < zone.partition.expiryOffset else { return false }
        return !(stamp == sequence && now == sequence && sequence & 1 == 0)
    }

    /// Throws `changeTokenExpired` when a compaction that ran during the read dropped a delete
    /// the token's holder may need: the read may have missed it.
    func checkNotExpired() throws {
        if mayMissDroppedDelete(now: zone.partition.dropSequence) { throw RecordStoreError.changeTokenExpired(zone.zoneID) }
    }

    /// The token to continue from `offset`: stamped with the drop sequence read before the read
    /// when it was even (no compaction dropping deletes was under way), else unstamped — then
    /// answered only at or above the expiry offset.
    func token(at offset: Int64, storeID: [UInt8]) -> ServerChangeToken {
        let position = ZonePosition(incarnation: zone.incarnation, offset: offset)
        let stamp = sequence & 1 == 0 ? sequence : nil
        return TokenContent.zone(.init(zoneName: zone.zoneID.zoneName, position: position), dropStamp: stamp).encode(storeID: storeID)
    }
}
