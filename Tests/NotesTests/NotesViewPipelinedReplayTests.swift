import Foundation
import Notes
@testable import RecordStore
import Testing
import TuningSupport
import TestSupport

/// A long replay folds on a second thread and hands the Notes view each save's id ahead of it
/// (`NotesView.prefetch(forSaved:)`); the view it builds is the one a short replay builds.
@Suite(.everyTuning) struct NotesViewPipelinedReplayTests {
    @Test("the Notes view replayed on two threads, with its prefetch hints, equals the live view", arguments: [11, 12] as [UInt64])
    func pipelinedEqualsLive(seed: UInt64) async throws {
        let database = try await Database.temporary()
        let manager = try await RecordNotesManager(database: database)
        var random = SeededGenerator(seed: seed)
        _ = try await manager.createDefaultFolder()
        try await randomNotesSteps(60, manager, database, &random)
        let zones = database.state.withLock { Array($0.zones.values) }
        var view = NotesView()
        view.willReplay(liveRecordsByType: zones.reduce(into: [:]) { $0.merge($1.records.liveRecordsByType, uniquingKeysWith: +) })
        var hinted = 0
        try Database.replay(
            zones, from: [:], pipelinedFrom: 0, saved: { view.apply(saved: $0) }, other: { view.apply($0) },
            upcoming: { id in
                hinted += 1
                view.prefetch(forSaved: id)
            })
        view.didReplay()
        #expect(hinted > 0)
        #expect(await view == manager.notes.current)
        try database.removeTemporaryDirectory()
    }
}
