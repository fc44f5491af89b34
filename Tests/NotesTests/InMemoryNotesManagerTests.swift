import Foundation
import Notes
import Synchronization
import Testing

/// What only the in-memory manager can show: with its clock fixed, dates tie for certain and
/// their rounding to whole milliseconds is exact.
@Suite("InMemoryNotesManager")
struct InMemoryNotesManagerTests {
    /// A clock the test sets.
    final class TestClock: Sendable {
        private let time: Mutex<Date>
        init(_ time: Date) { self.time = Mutex(time) }
        var now: Date {
            get { time.withLock { $0 } }
            set { time.withLock { $0 = newValue } }
        }
    }

    @Test func notesWithTheSameDateAreOrderedByIdentifierAndReversedNewestFirst() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let notes = InMemoryNotesManager { clock.now }
        let inbox = try await notes.createDefaultFolder()
        for id in ["c", "a", "B", "b", "é"] { _ = try await notes.save(Note(id: id, folderID: inbox.id)) }
        #expect(try await notes.fetchNotes(in: inbox).map(\.id) == ["B", "a", "b", "c", "é"])
        #expect(try await notes.fetchNotes(in: inbox, newestFirst: true).map(\.id) == ["é", "c", "b", "a", "B"])

        // A later edit moves a note last, whatever its identifier.
        clock.now = Date(timeIntervalSince1970: 1_700_000_001)
        _ = try await notes.save(Note(id: "B", folderID: inbox.id, content: "edited"))
        #expect(try await notes.fetchNotes(in: inbox).map(\.id) == ["a", "b", "c", "é", "B"])
        #expect(try await notes.fetchNotes(in: inbox, newestFirst: true).map(\.id) == ["B", "é", "c", "b", "a"])
    }

    @Test func datesAreRoundedToTheNearestMillisecond() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000.123_4))
        let notes = InMemoryNotesManager { clock.now }
        let folder = try await notes.createDefaultFolder()
        #expect(folder.createdAt == Date(timeIntervalSince1970: 1_700_000_000.123))

        clock.now = Date(timeIntervalSince1970: 1_700_000_000.123_6)
        let note = try await notes.save(notes.newNote(in: folder))
        #expect(note.createdAt == Date(timeIntervalSince1970: 1_700_000_000.124))
        #expect(note.modifiedAt == note.createdAt)

        clock.now = Date(timeIntervalSince1970: 1_700_000_002.000_9)
        let edited = try await notes.save(note)
        #expect(edited.createdAt == Date(timeIntervalSince1970: 1_700_000_000.124))
        #expect(edited.modifiedAt == Date(timeIntervalSince1970: 1_700_000_002.001))
    }

    @Test(.timeLimit(.minutes(10)))
    func streamsEndWhenTheManagerIsGone() async {
        var iterator = InMemoryNotesManager().noteUpdates().makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
