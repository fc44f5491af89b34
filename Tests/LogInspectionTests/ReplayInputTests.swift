import Foundation
import LogInspection
import Testing

@Suite struct ReplayInputTests {
    @Test("TIME reads milliseconds and ISO 8601 with a zone, keeping the millisecond below")
    func times() throws {
        #expect(try TimeArgument.parse("1714564800000") == 1_714_564_800_000)
        #expect(try TimeArgument.parse("-5") == -5)
        #expect(try TimeArgument.parse("2024-05-01T12:00:00Z") == 1_714_564_800_000)
        #expect(try TimeArgument.parse("2024-05-01T12:00:00.25Z") == 1_714_564_800_250)
        #expect(try TimeArgument.parse("2024-05-01T12:00:00.2509Z") == 1_714_564_800_250)
        #expect(try TimeArgument.parse("2024-05-01T14:00:00+02:00") == 1_714_564_800_000)
        #expect(try TimeArgument.parse("2024-05-01 07:30-0430") == 1_714_564_800_000)
        #expect(try TimeArgument.parse("1969-12-31T23:59:59.999Z") == -1)
        #expect(try TimeArgument.parse("2024-02-29T00:00:00Z") == 1_709_164_800_000)
        let now = try TimeArgument.parse("now")
        #expect(abs(now - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        for bad in ["", "yesterday", "2024-05-01", "2024-05-01T12:00:00", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "12:00Z"] {
            #expect(throws: ReplayError.malformedTime(bad)) { try TimeArgument.parse(bad) }
        }
    }

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
