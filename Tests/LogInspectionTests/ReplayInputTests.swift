import Foundation
import LogInspection
import Testing

@Suite struct ReplayInputTests {
    @Test("bad zones, records, offsets and stores are refused with what to do")
    func refusals() async throws {
        try await ItemsStore.with { items, store in
            #expect(throws: ReplayError.unknownZone("Nope", available: ["Items", "_defaultZone"])) {
                try store.state(zone: "Nope", at: .offset(0))
            }
            #expect(throws: ReplayError.unknownZone("_database", available: ["Items", "_defaultZone"])) {
                try store.state(zone: "_database", at: .offset(0))
            }
            #expect(throws: ReplayError.offsetBeyondEnd(zone: "Items", offset: 7, end: 6)) { try store.state(zone: "Items", at: .offset(7)) }
            let whole = try store.state(zone: "Items", at: .offset(6))
            #expect(whole.records.count == 3, "the end offset itself is the whole log")
            #expect(throws: ReplayError.negativeOffset(-1)) { try store.state(zone: "Items", at: .offset(-1)) }
            #expect(throws: ReplayError.offsetBeyondEveryZone(offset: 9, largestEnd: 6)) { try store.state(zone: nil, at: .offset(9)) }
            #expect(throws: ReplayError.unknownRecord(zone: "Items", recordName: "zz")) { try store.history(zone: "Items", recordName: "zz") }
            #expect(throws: ReplayError.reversedRange(from: 4, to: 2)) { try store.diff(zone: "Items", from: 4, to: 2) }
            #expect(throws: ReplayError.offsetBeyondEnd(zone: "Items", offset: 8, end: 6)) { try store.diff(zone: "Items", from: 1, to: 8) }
            #expect(throws: ReplayError.self) { try ReplayStore(directory: temporaryPath("missing")) }
            let message = ReplayError.offsetBeyondEnd(zone: "Items", offset: 7, end: 6).description
            #expect(message.contains("end offset") && message.contains("0…6"))
        }
    }

    @Test("the progress bar draws at most every 100 ms and erases itself")
    func progressBar() {
        let start = ContinuousClock.now
        var now = start
        var drawings: [String] = []
        let bar = ProgressBar(label: "replaying", width: 10, now: { now }) { drawings.append($0) }
        bar.update(done: 1, total: 10)
        #expect(drawings.isEmpty, "nothing within the first 100 ms")
        now = start + .milliseconds(100)
        bar.update(done: 5, total: 10)
        now = start + .milliseconds(150)
        bar.update(done: 6, total: 10)
        #expect(drawings == ["\rreplaying [#####.....] 50% 5/10 events"])
        now = start + .milliseconds(200)
        bar.update(done: 10, total: 10)
        bar.finish()
        #expect(drawings.count == 3)
        #expect(drawings.last == "\r\u{1B}[K")
    }
}
