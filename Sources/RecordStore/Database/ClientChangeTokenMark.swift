import RecordLog

/// The latest client change token a zone's commits carried (CloudKit's `clientChangeTokenData`),
/// and where: the token is stored in the `clientChangeToken` header of its commit's last event
/// (FORMAT.md §10.1), so `offset` is that event's, and the commit is the zone's latest exactly
/// when `offset` is the zone's end offset minus one.
struct ClientChangeTokenMark: Sendable, Equatable {
    /// The token's bytes, as the client gave them.
    var data: [UInt8]
    /// The offset of the event that carries it: the last of its commit.
    var offset: Int64
    /// The commit's durability, when this process wrote it: a retry answered from it waits for
    /// it as the request it repeats did. Nil for a commit read back from the log.
    var pending: PendingAppend?

    static func == (lhs: ClientChangeTokenMark, rhs: ClientChangeTokenMark) -> Bool {
        lhs.data == rhs.data && lhs.offset == rhs.offset
    }

    /// The most bytes a client change token may have: CloudKit sets no figure; a token is a
    /// version or a hash, and this keeps one from growing every commit.
    static let maximumBytes = 1024
}
