import Notes

extension NoteUpdate {
    /// The identifier of the note the update is about.
    var noteID: String {
        switch self {
        case .saved(let note): note.id
        case .deleted(let id, _): id
        }
    }
}

/// Reads updates up to and including the first about the note `barrier` — a note the test saves
/// or deletes last — so a test sees everything posted before it without waiting on a timer.
/// Returns early only when the stream ends.
func updates(from iterator: inout AsyncStream<NoteUpdate>.Iterator, through barrier: String) async -> [NoteUpdate] {
    var received: [NoteUpdate] = []
    while let update = await iterator.next() {
        received.append(update)
        if update.noteID == barrier { break }
    }
    return received
}
