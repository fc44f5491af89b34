/// Who a commit is written for, which decides the few rules that differ.
enum WriteMode: Sendable {
    /// An app's request (`modifyRecords`): CloudKit's naming rules (no system record names), the
    /// stored record's sync change tag kept, references checked, and — in a synced zone — a
    /// pending change recorded for every record written (``ChangeTracking``).
    case app
    /// A sync engine's write of the remote's state (``Database/syncWrite(in:_:)``): system records
    /// allowed, each saved record's sync change tag taken from the request, references to records
    /// that have not arrived yet allowed (the remote vouches for them; a later page brings them),
    /// and no pending change recorded.
    case sync
}
